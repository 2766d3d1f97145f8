package io.jkubelet.core.apis.config;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A Linux CPU list ({@code 0-3,8}), as upstream's {@code cpuset.Parse} reads it: comma-separated CPUs and inclusive
 * ranges, empty parts ignored. Immutable.
 *
 * @param cpus the CPU numbers, in order
 */
public record CpuSet(SortedSet<Integer> cpus) {

    public CpuSet {
        cpus = Collections.unmodifiableSortedSet(new TreeSet<>(cpus));
    }

    /**
     * @throws IllegalArgumentException with upstream's reason ({@code invalid range "3-1" (3 > 1)},
     *         {@code strconv.Atoi: parsing "x": invalid syntax})
     */
    public static CpuSet parse(String list) {
        SortedSet<Integer> cpus = new TreeSet<>();
        for (String part : list.split(",", -1)) {
            String range = part.trim();
            if (range.isEmpty()) {
                continue;
            }
            String[] bounds = range.split("-", -1);
            try {
                if (bounds.length == 1) {
                    cpus.add(Integer.parseInt(bounds[0]));
                } else if (bounds.length == 2) {
                    int first = Integer.parseInt(bounds[0]);
                    int last = Integer.parseInt(bounds[1]);
                    if (first > last) {
                        throw new IllegalArgumentException("invalid range \"" + range + "\" (" + first + " > " + last + ")");
                    }
                    for (int cpu = first; cpu <= last; cpu++) {
                        cpus.add(cpu);
                    }
                } else {
                    throw new IllegalArgumentException("invalid range \"" + range + "\"");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("strconv.Atoi: parsing \"" + range + "\": invalid syntax", e);
            }
        }
        return new CpuSet(cpus);
    }

    /** The set of the given CPUs. */
    public static CpuSet of(Integer... cpus) {
        return new CpuSet(new TreeSet<>(List.of(cpus)));
    }

    /** The set of the given CPUs. */
    public static CpuSet of(Collection<Integer> cpus) {
        return new CpuSet(new TreeSet<>(cpus));
    }

    public static final CpuSet EMPTY = new CpuSet(new TreeSet<>());

    public int size() {
        return cpus.size();
    }

    public boolean isEmpty() {
        return cpus.isEmpty();
    }

    public boolean contains(int cpu) {
        return cpus.contains(cpu);
    }

    public CpuSet union(CpuSet other) {
        TreeSet<Integer> out = new TreeSet<>(cpus);
        out.addAll(other.cpus);
        return new CpuSet(out);
    }

    public CpuSet intersection(CpuSet other) {
        TreeSet<Integer> out = new TreeSet<>(cpus);
        out.retainAll(other.cpus);
        return new CpuSet(out);
    }

    public CpuSet difference(CpuSet other) {
        TreeSet<Integer> out = new TreeSet<>(cpus);
        out.removeAll(other.cpus);
        return new CpuSet(out);
    }

    /** The CPUs in ascending order. */
    public List<Integer> toList() {
        return List.copyOf(cpus);
    }

    public boolean isSubsetOf(CpuSet other) {
        return other.cpus.containsAll(cpus);
    }

    /** The list in upstream's form: ranges of consecutive CPUs ({@code 0-3,8}). */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        Integer start = null;
        Integer previous = null;
        for (int cpu : cpus) {
            if (previous != null && cpu == previous + 1) {
                previous = cpu;
                continue;
            }
            append(s, start, previous);
            start = cpu;
            previous = cpu;
        }
        append(s, start, previous);
        return s.toString();
    }

    private static void append(StringBuilder s, Integer start, Integer end) {
        if (start == null) {
            return;
        }
        if (!s.isEmpty()) {
            s.append(',');
        }
        s.append(start);
        if (!end.equals(start)) {
            s.append('-').append(end);
        }
    }
}
