package io.jkubelet.core.cm.cpumanager;

import io.jkubelet.core.apis.config.CpuSet;

import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU manager's state (upstream's {@code state.State}): the shared pool ({@code defaultCpuSet}) and each
 * container's exclusive CPUs by pod UID and container name. Not thread-safe: the manager guards it.
 */
public final class CpuManagerState {
    private CpuSet defaultCpuSet = CpuSet.EMPTY;
    private final Map<String, Map<String, CpuSet>> assignments = new TreeMap<>();

    public CpuSet defaultCpuSet() {
        return defaultCpuSet;
    }

    public void setDefaultCpuSet(CpuSet cpus) {
        defaultCpuSet = cpus;
    }

    /** A container's exclusive CPUs, or null when it has none. */
    public CpuSet cpuSet(String podUid, String container) {
        Map<String, CpuSet> pod = assignments.get(podUid);
        return pod == null ? null : pod.get(container);
    }

    public void setCpuSet(String podUid, String container, CpuSet cpus) {
        assignments.computeIfAbsent(podUid, k -> new TreeMap<>()).put(container, cpus);
    }

    public void delete(String podUid, String container) {
        Map<String, CpuSet> pod = assignments.get(podUid);
        if (pod != null) {
            pod.remove(container);
            if (pod.isEmpty()) {
                assignments.remove(podUid);
            }
        }
    }

    /** A copy of the assignments. */
    public Map<String, Map<String, CpuSet>> assignments() {
        Map<String, Map<String, CpuSet>> copy = new TreeMap<>();
        assignments.forEach((pod, containers) -> copy.put(pod, new TreeMap<>(containers)));
        return copy;
    }

    public void setAssignments(Map<String, Map<String, CpuSet>> all) {
        assignments.clear();
        all.forEach((pod, containers) -> assignments.put(pod, new TreeMap<>(containers)));
    }
}
