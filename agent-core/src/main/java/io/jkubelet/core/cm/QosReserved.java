package io.jkubelet.core.cm;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code qosReserved} as upstream's {@code cm.ParseQOSReserved} reads it at start, whether or not the QOSReserved gate
 * lets it act: memory alone, as a whole percentage from 0 to 100.
 */
public final class QosReserved {
    private QosReserved() {}

    /**
     * The percentage reserved by resource name.
     *
     * @throws IllegalArgumentException in upstream's words ({@code cannot reserve "cpu" resource}, {@code failed to parse
     *         percentage "50" for "memory" resource: percentage expected, got '50'})
     */
    public static Map<String, Long> parse(Map<String, String> reserved) {
        Map<String, Long> percentages = new LinkedHashMap<>();
        if (reserved == null) {
            return percentages;
        }
        reserved.forEach((resource, value) -> {
            if (!resource.equals("memory")) {
                throw new IllegalArgumentException("cannot reserve \"" + resource + "\" resource");
            }
            percentages.put(resource, percentage(resource, value));
        });
        return percentages;
    }

    private static long percentage(String resource, String value) {
        String prefix = "failed to parse percentage \"" + value + "\" for \"" + resource + "\" resource: ";
        if (!value.endsWith("%")) {
            throw new IllegalArgumentException(prefix + "percentage expected, got '" + value + "'");
        }
        long percentage;
        try {
            percentage = Long.parseLong(value.replaceAll("%+$", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(prefix + "invalid number in percentage '" + value + "'", e);
        }
        if (percentage < 0 || percentage > 100) {
            throw new IllegalArgumentException(prefix + "percentage must be between 0 and 100");
        }
        return percentage;
    }
}
