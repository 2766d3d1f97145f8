package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.podutil.PodSpecs;
import java.util.ArrayList;
import java.util.List;

/**
 * The pod fields a kubelet feature gate turns off, dropped from every pod as it arrives from any source, as an
 * apiserver with the same gate off drops them ({@code dropDisabledPodFields}): with {@code SidecarContainers} off,
 * an init container's {@code restartPolicy}, so that a sidecar runs as an ordinary init container. Immutable and
 * thread-safe; a pod that has nothing to drop is passed on as it is, any other is copied before it is changed.
 */
public final class DisabledPodFields {

    /** Every gate at its default: nothing is dropped. */
    public static final DisabledPodFields NONE = new DisabledPodFields(true);

    private final boolean sidecarContainers;

    private DisabledPodFields(boolean sidecarContainers) {
        this.sidecarContainers = sidecarContainers;
    }

    public static DisabledPodFields of(FeatureGates gates) {
        return new DisabledPodFields(gates.enabled(FeatureGates.SIDECAR_CONTAINERS));
    }

    PodUpdate apply(PodUpdate update) {
        if (sidecarContainers) {
            return update;
        }
        List<Pod> pods = new ArrayList<>(update.pods().size());
        for (Pod pod : update.pods()) {
            pods.add(apply(pod));
        }
        return new PodUpdate(pods, update.op(), update.source());
    }

    /** {@code pod} without the disabled fields. */
    public Pod apply(Pod pod) {
        if (sidecarContainers || PodSpecs.initContainers(pod).stream().allMatch(c -> c.getRestartPolicy() == null)) {
            return pod;
        }
        Pod copy = new PodBuilder(pod).build();
        for (Container c : copy.getSpec().getInitContainers()) {
            c.setRestartPolicy(null);
        }
        return copy;
    }
}
