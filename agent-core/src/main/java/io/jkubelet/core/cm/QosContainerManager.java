package io.jkubelet.core.cm;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.PodResources;
import io.jkubelet.core.podutil.Resources;
import io.jkubelet.core.qos.QosClass;

import java.util.List;
import java.util.Locale;

/**
 * The QoS cgroups below {@code kubepods} (upstream {@code qosContainerManagerImpl}): {@code burstable} and
 * {@code besteffort}; Guaranteed pods sit directly in {@code kubepods}. BestEffort always gets the fewest CPU shares,
 * Burstable the shares of its pods' summed CPU requests, so that under contention each class gets what its pods
 * asked for. Thread-safe: updates are serialized.
 */
final class QosContainerManager {
    private final CgroupManager cgroups;
    private final CgroupName root;
    private final CgroupName burstable;
    private final CgroupName bestEffort;

    /** @param root the {@code kubepods} cgroup */
    QosContainerManager(CgroupManager cgroups, CgroupName root) {
        this.cgroups = cgroups;
        this.root = root;
        this.burstable = root.child(QosClass.BURSTABLE.value().toLowerCase(Locale.ROOT));
        this.bestEffort = root.child(QosClass.BEST_EFFORT.value().toLowerCase(Locale.ROOT));
    }

    /**
     * Creates the QoS cgroups, or brings existing ones to their start values (a restart must not trust what it
     * finds).
     */
    void start() throws CgroupException {
        try {
            cgroups.validate(root);
        } catch (CgroupException e) {
            throw new CgroupException("error validating root container " + root + " : " + e.getMessage(), e);
        }
        for (CgroupName qos : List.of(burstable, bestEffort)) {
            ResourceConfig start = qos.equals(bestEffort) ? ResourceConfig.cpuShares(Resources.MIN_SHARES) : ResourceConfig.NONE;
            String what = qos.equals(bestEffort) ? "BestEffort" : "Burstable";
            try {
                if (cgroups.exists(qos)) {
                    cgroups.update(qos, start);
                } else {
                    cgroups.create(qos, start);
                }
            } catch (CgroupException e) {
                throw new CgroupException("failed to create top level " + what + " QOS cgroup : " + e.getMessage(), e);
            }
        }
    }

    /** The cgroup a pod's cgroup goes in: {@code kubepods} for Guaranteed, else its class's. */
    CgroupName parentOf(QosClass qos) {
        return switch (qos) {
            case GUARANTEED -> root;
            case BURSTABLE -> burstable;
            case BEST_EFFORT -> bestEffort;
        };
    }

    /** The three cgroups pods are found in. */
    List<CgroupName> all() {
        return List.of(bestEffort, burstable, root);
    }

    /** Upstream {@code UpdateCgroups}: the QoS cgroups' CPU shares from the active pods. */
    synchronized void update(List<Pod> activePods) throws CgroupException {
        cgroups.update(bestEffort, ResourceConfig.cpuShares(Resources.MIN_SHARES));
        cgroups.update(burstable, ResourceConfig.cpuShares(burstableShares(activePods)));
    }

    /** The shares of the summed CPU requests of the Burstable pods among {@code pods}. */
    static long burstableShares(List<Pod> pods) {
        long milliCpu = 0;
        for (Pod pod : pods) {
            if (QosClass.of(pod) == QosClass.BURSTABLE) {
                milliCpu += PodResources.requests(pod).getOrDefault(PodResources.CPU, 0L);
            }
        }
        return Resources.milliCpuToShares(milliCpu);
    }
}
