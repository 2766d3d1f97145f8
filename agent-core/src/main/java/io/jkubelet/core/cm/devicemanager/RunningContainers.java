package io.jkubelet.core.cm.devicemanager;

import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.RuntimeService;

import java.util.HashSet;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Upstream's {@code buildContainerMapAndRunningSetFromRuntime}: which pods' containers the runtime runs when the
 * kubelet starts, so that the device manager keeps their devices ({@link DeviceManager#start}'s {@code runningAtStart}).
 */
public final class RunningContainers {
    private RunningContainers() {
    }

    /**
     * The runtime's running containers now, asked as (pod UID, container name); none when the runtime cannot list
     * them (upstream's empty map then).
     */
    public static BiPredicate<String, String> now(RuntimeService runtime) {
        Set<String> running = new HashSet<>();
        try {
            for (var c : runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null))) {
                String uid = c.labels().get(Labels.POD_UID);
                if (uid != null) {
                    running.add(uid + "/" + c.metadata().name());
                }
            }
        } catch (RuntimeException e) {
            running.clear();
        }
        return (uid, name) -> running.contains(uid + "/" + name);
    }
}
