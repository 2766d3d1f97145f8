package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.Pod;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * Refuses a pod that uses a field this kubelet does not act on ({@link UnsupportedPodFields}), so that no such field
 * is silently ignored: upstream's {@code podFeaturesAdmitHandler} (pod-level resources without the
 * {@code PodLevelResources} gate: {@code PodLevelResourcesNotSupported}) and {@code declaredFeaturesAdmitHandler}
 * (what the node cannot do: {@code PodFeatureUnsupported}, "Pod requires node features that are not available: ...")
 * with their reasons, each refusal naming the fields. Asked after the AppArmor handler, as upstream asks these two.
 * Static pods and apiserver pods alike; every pod, as upstream's two handlers check every pod they are asked about.
 * Thread-safe.
 */
public final class PodFeaturesAdmitHandler implements PodAdmitHandler {
    /** Upstream's reason for a pod that needs features the node does not declare. */
    public static final String POD_FEATURE_UNSUPPORTED = "PodFeatureUnsupported";
    /** Upstream's reason for pod-level resources on a kubelet that does not enforce them. */
    public static final String POD_LEVEL_RESOURCES_NOT_SUPPORTED = "PodLevelResourcesNotSupported";

    private final BooleanSupplier seLinuxEnabled;

    /** @param seLinuxEnabled whether the host enforces SELinux */
    public PodFeaturesAdmitHandler(BooleanSupplier seLinuxEnabled) {
        this.seLinuxEnabled = seLinuxEnabled;
    }

    /** This host: SELinux is on when its file system is mounted ({@code /sys/fs/selinux/enforce}, go-selinux's check). */
    public static PodFeaturesAdmitHandler forHost() {
        return new PodFeaturesAdmitHandler(() -> Files.exists(Path.of("/sys/fs/selinux/enforce")));
    }

    @Override
    public PodAdmitResult admit(Pod pod, List<Pod> otherPods) {
        if (UnsupportedPodFields.podLevelResources(pod)) {
            return PodAdmitResult.reject(POD_LEVEL_RESOURCES_NOT_SUPPORTED,
                    "PodLevelResources feature gate is disabled: this kubelet does not enforce pod-level resources "
                            + "(spec.resources)");
        }
        List<UnsupportedPodFields.Use> uses = UnsupportedPodFields.of(pod, seLinuxEnabled.getAsBoolean());
        if (uses.isEmpty()) {
            return PodAdmitResult.ADMIT;
        }
        return PodAdmitResult.reject(POD_FEATURE_UNSUPPORTED, "Pod requires node features that are not available: "
                + uses.stream().map(UnsupportedPodFields.Use::toString).collect(Collectors.joining(", ")));
    }
}
