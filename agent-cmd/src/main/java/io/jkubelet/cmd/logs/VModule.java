package io.jkubelet.cmd.logs;

import io.jkubelet.core.apis.config.LoggingConfiguration.VModuleItem;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * klog's {@code vmodule}: per-file verbosity. klog matches each pattern, in order, against the base name of the
 * calling Go file without {@code .go}; the first that matches gives that file's level, and a message is logged when
 * either the global verbosity or that level allows it. jkubelet's loggers are named after their classes, so the
 * "file" is the class's simple name (of its outer class, the {@code .java} file): {@code GenericPleg=5}. A pattern
 * with a dot is matched against the whole logger name instead, so a package can be turned up:
 * {@code io.jkubelet.core.pleg.*=5}. In both, {@code *} matches any run of characters other than a dot and
 * {@code ?} one such character (Go's {@code filepath.Match} on a file name). Immutable.
 */
public final class VModule {

    /** No per-file levels. */
    public static final VModule NONE = new VModule(List.of());

    private record Entry(Pattern pattern, boolean qualified, long verbosity) {
    }

    private final List<Entry> entries;

    private VModule(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** The configuration's {@code logging.vmodule} (validated: no empty pattern, no {@code =} or {@code ,}). */
    public static VModule of(List<VModuleItem> items) {
        if (items == null) {
            return NONE;
        }
        List<Entry> entries = new ArrayList<>();
        for (VModuleItem item : items) {
            entries.add(new Entry(glob(item.filePattern()), item.filePattern().contains("."), item.verbosity()));
        }
        return new VModule(entries);
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The level of the first pattern that matches the logger {@code loggerName}, or none. */
    public OptionalLong verbosityOf(String loggerName) {
        String outer = loggerName.contains("$") ? loggerName.substring(0, loggerName.indexOf('$')) : loggerName;
        String file = outer.substring(outer.lastIndexOf('.') + 1);
        for (Entry entry : entries) {
            if (entry.pattern().matcher(entry.qualified() ? outer : file).matches()) {
                return OptionalLong.of(entry.verbosity());
            }
        }
        return OptionalLong.empty();
    }

    private static Pattern glob(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            switch (c) {
                case '*' -> regex.append("[^.]*");
                case '?' -> regex.append("[^.]");
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }
}
