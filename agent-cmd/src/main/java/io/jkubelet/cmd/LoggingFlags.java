package io.jkubelet.cmd;

import io.jkubelet.cmd.FlagValues.BadValue;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.LoggingConfiguration.FormatOptions;
import io.jkubelet.core.apis.config.LoggingConfiguration.OutputRoutingOptions;
import io.jkubelet.core.apis.config.LoggingConfiguration.VModuleItem;
import io.jkubelet.core.apis.config.TimeOrMetaDuration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static io.jkubelet.cmd.ConfigFlag.flag;

/**
 * component-base's logging flags ({@code logsapi.AddFlags}), which set the configuration's {@code logging} field:
 * {@code --logging-format}, {@code --log-flush-frequency}, {@code -v}, {@code --vmodule} and the split-stream options
 * of each format, with upstream's help texts.
 */
final class LoggingFlags {

    static final List<ConfigFlag> ALL = List.of(
            flag(FlagSpec.of("logging-format", "string", "Sets the log format. Permitted formats: \"json\" "
                    + "(gated by LoggingBetaOptions), \"text\"."),
                    c -> c.logging().format(),
                    (c, v, earlier) -> c.loggingBuilder().format(v)),
            flag(FlagSpec.of("log-flush-frequency", "duration", "Maximum number of seconds between log flushes"),
                    c -> c.logging().flushFrequency().duration(),
                    (c, v, earlier) -> c.loggingBuilder()
                            .flushFrequency(new TimeOrMetaDuration(FlagValues.duration(v), true))),
            flag(new FlagSpec("v", "v", "Level", false, "number for the log level verbosity"),
                    c -> c.logging().verbosity(),
                    (c, v, earlier) -> c.loggingBuilder().verbosity(FlagValues.uint32(v))),
            flag(FlagSpec.of("vmodule", "pattern=N,...", "comma-separated list of pattern=N settings for "
                    + "file-filtered logging (only works for text log format)"), c -> c.logging().vmodule(),
                    LoggingFlags::addVModule),
            splitStream("text", "text", FormatOptions::text, (c, split) -> setText(c, split, null)),
            infoBufferSize("text", "text", FormatOptions::text, (c, size) -> setText(c, null, size)),
            splitStream("json", "JSON", FormatOptions::json, (c, split) -> setJson(c, split, null)),
            infoBufferSize("json", "JSON", FormatOptions::json, (c, size) -> setJson(c, null, size)));

    private LoggingFlags() {
    }

    /** How a flag of one format's output routing sets the configuration. */
    private interface RoutingSetter<T> {
        void set(KubeletConfiguration.Builder config, T value);
    }

    /** {@code --log-<format>-split-stream}, with upstream's help. */
    private static ConfigFlag splitStream(String format, String formatName,
                                          Function<FormatOptions, OutputRoutingOptions> routing,
                                          RoutingSetter<Boolean> setter) {
        return flag(FlagSpec.bool("log-" + format + "-split-stream", "[Alpha] In " + formatName + " format, "
                + "write error messages to stderr and info messages to stdout. The default is to write a single stream to "
                + "stdout. Enable the LoggingAlphaOptions feature gate to use this."),
                c -> routing.apply(c.logging().options()).splitStream(),
                (c, v, earlier) -> setter.set(c, FlagValues.bool(v)));
    }

    /** {@code --log-<format>-info-buffer-size}, with upstream's help. */
    private static ConfigFlag infoBufferSize(String format, String formatName,
                                             Function<FormatOptions, OutputRoutingOptions> routing,
                                             RoutingSetter<String> setter) {
        return flag(FlagSpec.of("log-" + format + "-info-buffer-size", "quantity", "[Alpha] In " + formatName
                + " format with split output streams, the info messages can be buffered for a while to increase "
                + "performance. The default value of zero bytes disables buffering. The size can be specified as number "
                + "of bytes (512), multiples of 1000 (1K), multiples of 1024 (2Ki), or powers of those (3M, 4G, 5Mi, 6Gi). "
                + "Enable the LoggingAlphaOptions feature gate to use this."),
                c -> routing.apply(c.logging().options()).infoBufferSize(),
                (c, v, earlier) -> setter.set(c, quantity(v)));
    }

    /**
     * component-base's {@code VModuleConfigurationPflag.Set}: each occurrence appends its {@code pattern=N} items (to
     * the file's too, as pflag sets the loaded configuration), an empty item is skipped.
     */
    private static void addVModule(KubeletConfiguration.Builder config, String value, List<String> earlier)
            throws BadValue {
        List<VModuleItem> items = new ArrayList<>();
        for (String pattern : value.split(",", -1)) {
            if (pattern.isEmpty()) {
                continue;
            }
            String[] parts = pattern.split("=", -1);
            if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
                throw new BadValue(FlagValues.quote(pattern) + " does not have the pattern=N format");
            }
            long level;
            try {
                level = FlagValues.uint32(parts[1]);
            } catch (BadValue e) {
                throw new BadValue("parsing verbosity in " + FlagValues.quote(pattern) + ": " + e.getMessage());
            }
            if (level > Integer.MAX_VALUE) {
                // ParseUint(s, 10, 31): klog's levels fit an int32.
                throw new BadValue("parsing verbosity in " + FlagValues.quote(pattern) + ": strconv.ParseUint: parsing "
                        + FlagValues.quote(parts[1]) + ": value out of range");
            }
            items.add(new VModuleItem(parts[0], level));
        }
        config.loggingBuilder().addAllVmodule(items);
    }

    private static String quantity(String value) throws BadValue {
        try {
            new OutputRoutingOptions(false, value).infoBufferSizeBytes();
        } catch (IllegalArgumentException e) {
            throw new BadValue(e.getMessage());
        }
        return value;
    }

    /** The options set so far: the file's, or the defaults before the file is read (a check of the flags' values). */
    private static FormatOptions current(KubeletConfiguration.Builder config) {
        try {
            return config.loggingBuilder().build().options();
        } catch (IllegalStateException notComplete) {
            return new FormatOptions();
        }
    }

    private static void setText(KubeletConfiguration.Builder config, Boolean split, String bufferSize) {
        FormatOptions options = current(config);
        config.loggingBuilder().options(new FormatOptions(merge(options.text(), split, bufferSize), options.json()));
    }

    private static void setJson(KubeletConfiguration.Builder config, Boolean split, String bufferSize) {
        FormatOptions options = current(config);
        config.loggingBuilder().options(new FormatOptions(options.text(), merge(options.json(), split, bufferSize)));
    }

    private static OutputRoutingOptions merge(OutputRoutingOptions options, Boolean split, String bufferSize) {
        return new OutputRoutingOptions(split != null ? split : options.splitStream(),
                bufferSize != null ? bufferSize : options.infoBufferSize());
    }
}
