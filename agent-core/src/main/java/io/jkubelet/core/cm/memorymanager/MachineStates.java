package io.jkubelet.core.cm.memorymanager;

import java.util.Map;

/**
 * Upstream's {@code areMachineStatesEqual}: a restored machine state is the expected one when every node has the same
 * assignments, group and tables' total, system reserved and allocatable, and each group's free and reserved memory add
 * up the same (which node of a group the bytes were taken from may differ).
 */
final class MachineStates {
    private MachineStates() {}

    static boolean equal(Map<Integer, NumaNodeState> a, Map<Integer, NumaNodeState> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (var e : a.entrySet()) {
            NumaNodeState n1 = e.getValue();
            NumaNodeState n2 = b.get(e.getKey());
            if (n1.numberOfAssignments != n2.numberOfAssignments || !n1.cells.stream().sorted().toList()
                    .equals(n2.cells.stream().sorted().toList()) || !n1.memoryMap.keySet().equals(n2.memoryMap.keySet())) {
                return false;
            }
            for (var t : n1.memoryMap.entrySet()) {
                MemoryTable t1 = t.getValue();
                MemoryTable t2 = n2.memoryMap.get(t.getKey());
                if (t1.total != t2.total || t1.systemReserved != t2.systemReserved || t1.allocatable != t2.allocatable) {
                    return false;
                }
                long free1 = 0;
                long free2 = 0;
                long reserved1 = 0;
                long reserved2 = 0;
                for (int id : n1.cells) {
                    if (!a.containsKey(id)) {
                        return false;
                    }
                    free1 += a.get(id).table(t.getKey()).free;
                    reserved1 += a.get(id).table(t.getKey()).reserved;
                    free2 += b.containsKey(id) ? b.get(id).table(t.getKey()).free : 0;
                    reserved2 += b.containsKey(id) ? b.get(id).table(t.getKey()).reserved : 0;
                }
                if (free1 != free2 || reserved1 != reserved2) {
                    return false;
                }
            }
        }
        return true;
    }
}
