package io.jkubelet.core.podresources;

import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.cm.cpumanager.CpuManager;

import java.util.List;

/**
 * The CPUs the pod-resources API tells of (upstream's {@code CPUsProvider}, the container manager's {@code GetCPUs} and
 * {@code GetAllocatableCPUs}). Thread-safe.
 */
public interface CpusProvider {
    /** The container's exclusive CPUs, ascending; none for a container of the shared pool. */
    List<Long> cpus(String podUid, String container);

    /** The CPUs that may be given exclusively, ascending. */
    List<Long> allocatableCpus();

    /** The {@code none} policy's answers: no CPU is exclusive, none may be. */
    static CpusProvider none() {
        return new CpusProvider() {
            @Override
            public List<Long> cpus(String podUid, String container) {
                return List.of();
            }

            @Override
            public List<Long> allocatableCpus() {
                return List.of();
            }
        };
    }

    /**
     * The {@code static} policy's answers: the CPU manager's {@code GetExclusiveCPUs} for each container, and its
     * {@code GetAllocatableCPUs}, every online CPU but the reserved ones.
     */
    static CpusProvider of(CpuManager manager) {
        return new CpusProvider() {
            @Override
            public List<Long> cpus(String podUid, String container) {
                return ids(manager.exclusiveCpus(podUid, container));
            }

            @Override
            public List<Long> allocatableCpus() {
                return ids(manager.allocatableCpus());
            }
        };
    }

    private static List<Long> ids(CpuSet cpus) {
        return cpus.cpus().stream().map(Integer::longValue).toList();
    }
}
