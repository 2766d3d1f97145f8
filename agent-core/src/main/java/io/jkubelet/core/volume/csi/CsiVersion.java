package io.jkubelet.core.volume.csi;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A version a CSI driver says it speaks, read as apimachinery's {@code ParseGeneric}: two or more dot-separated numbers
 * after an optional {@code v}, the first without a leading zero, anything after them ignored ({@code 1.0.0-rc2},
 * {@code v1.2}). Compared component by component, missing ones counting as zero.
 */
record CsiVersion(List<Integer> components) implements Comparable<CsiVersion> {
    private static final Pattern GENERIC = Pattern.compile("^\\s*v?([0-9]+(?:\\.[0-9]+)+)(.*)$");

    /**
     * @throws IllegalArgumentException with apimachinery's words ({@code could not parse "x" as version})
     */
    static CsiVersion parseGeneric(String text) {
        Matcher m = GENERIC.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("could not parse \"" + text + "\" as version");
        }
        List<Integer> parts = new ArrayList<>();
        String[] fields = m.group(1).split("\\.");
        for (int i = 0; i < fields.length; i++) {
            if (i == 0 && fields[i].length() > 1 && fields[i].startsWith("0")) {
                throw new IllegalArgumentException("illegal zero-prefixed version component \"" + fields[i] + "\" in \""
                        + text + "\"");
            }
            try {
                parts.add(Integer.parseInt(fields[i]));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("illegal non-numeric version component \"" + fields[i] + "\" in \""
                        + text + "\"");
            }
        }
        return new CsiVersion(List.copyOf(parts));
    }

    int major() {
        return components.getFirst();
    }

    @Override
    public int compareTo(CsiVersion o) {
        for (int i = 0; i < Math.max(components.size(), o.components.size()); i++) {
            int a = i < components.size() ? components.get(i) : 0;
            int b = i < o.components.size() ? o.components.get(i) : 0;
            if (a != b) {
                return Integer.compare(a, b);
            }
        }
        return 0;
    }

    @Override
    public String toString() {
        return String.join(".", components.stream().map(String::valueOf).toList());
    }

    /**
     * apimachinery's {@code HighestSupportedVersion}: the highest 1.x of the list. CSI has had 0.x and 1.x only; 2.x may
     * break 1.x, so it is passed over, and 0.x is no longer supported (since Kubernetes v1.17).
     *
     * @throws IllegalArgumentException {@code empty array for supported versions}, {@code could not find a highest
     *     supported version from versions ([...]) reported: <why>}, or {@code highest supported version reported is
     *     0.3.0, must be v1.x}
     */
    static CsiVersion highestSupported(List<String> versions) {
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("empty array for supported versions");
        }
        CsiVersion highest = null;
        String lastError = null;
        for (String v : versions.reversed()) {
            CsiVersion parsed;
            try {
                parsed = parseGeneric(v);
            } catch (IllegalArgumentException e) {
                lastError = e.getMessage();
                continue;
            }
            if (parsed.major() > 1) {
                continue;
            }
            if (highest == null || highest.compareTo(parsed) < 0) {
                highest = parsed;
            }
        }
        if (highest == null) {
            throw new IllegalArgumentException("could not find a highest supported version from versions ("
                    + goList(versions) + ") reported: " + (lastError == null ? "<nil>" : lastError));
        }
        if (highest.major() != 1) {
            throw new IllegalArgumentException("highest supported version reported is " + highest + ", must be v1.x");
        }
        return highest;
    }

    /** Go's {@code %v} of a string slice. */
    static String goList(List<String> values) {
        return "[" + String.join(" ", values) + "]";
    }
}
