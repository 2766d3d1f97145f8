package io.jkubelet.core.apis.config;

import java.util.List;

/**
 * The validation of the configuration's component-base parts, as upstream keeps it apart from the kubelet's own rules
 * ({@code logsapi.Validate} for {@code logging}, {@code ValidateTracingConfiguration} for {@code tracing}), with
 * their messages. Stateless and thread-safe.
 */
final class ComponentConfigValidator {
    private ComponentConfigValidator() {
    }

    /**
     * component-base's {@code logsapi.Validate} on {@code logging}, with its messages: the format (json behind
     * LoggingBetaOptions, on by default), klog's int32 verbosity, vmodule only with the text format, and the
     * split-stream options behind LoggingAlphaOptions (off by default).
     */
    static void validateLogging(LoggingConfiguration logging, FeatureGates gates, List<String> errors) {
        String format = logging.format();
        if (!format.equals(LoggingConfiguration.FORMAT_TEXT) && !format.equals(LoggingConfiguration.FORMAT_JSON)) {
            errors.add("logging.format: Invalid value: \"" + format + "\": Unsupported log format");
        } else if (format.equals(LoggingConfiguration.FORMAT_JSON) && !gates.enabled(FeatureGates.LOGGING_BETA_OPTIONS)) {
            errors.add("logging.format: Forbidden: Log format json is disabled, see " + FeatureGates.LOGGING_BETA_OPTIONS
                    + " feature");
        }
        if (logging.verbosity() > Integer.MAX_VALUE) {
            errors.add("logging.verbosity: Invalid value: " + logging.verbosity() + ": Must be <= " + Integer.MAX_VALUE);
        }
        List<LoggingConfiguration.VModuleItem> vmodule = logging.vmodule() == null ? List.of() : logging.vmodule();
        if (!vmodule.isEmpty() && !format.isEmpty() && !format.equals(LoggingConfiguration.FORMAT_TEXT)) {
            errors.add("logging.vmodule: Forbidden: Only supported for text log format");
        }
        for (int i = 0; i < vmodule.size(); i++) {
            LoggingConfiguration.VModuleItem item = vmodule.get(i);
            if (item.filePattern().isEmpty()) {
                errors.add("logging.vmodule[" + i + "]: Required value: File pattern must not be empty");
            }
            if (item.filePattern().contains(",") || item.filePattern().contains("=")) {
                errors.add("logging.vmodule[" + i + "]: Invalid value: \"" + item.filePattern()
                        + "\": File pattern must not contain equal sign or comma");
            }
            if (item.verbosity() > Integer.MAX_VALUE) {
                errors.add("logging.vmodule[" + i + "]: Invalid value: " + item.verbosity() + ": Must be <= "
                        + Integer.MAX_VALUE);
            }
        }
        if (logging.flushFrequency().duration().isNegative()) {
            errors.add("logging.flushFrequency: Invalid value: \""
                    + GoDuration.format(logging.flushFrequency().duration()) + "\": must not be negative");
        }
        validateOutputRouting("logging.options.text", logging.options().text(), gates, errors);
        validateOutputRouting("logging.options.json", logging.options().json(), gates, errors);
    }

    private static void validateOutputRouting(String path, LoggingConfiguration.OutputRoutingOptions options,
            FeatureGates gates, List<String> errors) {
        boolean alpha = gates.enabled(FeatureGates.LOGGING_ALPHA_OPTIONS);
        if (options.splitStream() && !alpha) {
            errors.add(path + ".splitStream: Forbidden: Feature " + FeatureGates.LOGGING_ALPHA_OPTIONS + " is disabled");
        }
        long size;
        try {
            size = options.infoBufferSizeBytes();
        } catch (IllegalArgumentException e) {
            errors.add(path + ".infoBufferSize: Invalid value: \"" + options.infoBufferSize() + "\": " + e.getMessage());
            return;
        }
        if (size != 0 && !alpha) {
            errors.add(path + ".infoBufferSize: Forbidden: Feature " + FeatureGates.LOGGING_ALPHA_OPTIONS + " is disabled");
        }
    }

    static void validateTracing(TracingConfiguration tracing, FeatureGates gates, List<String> errors) {
        if (tracing == null) {
            return;
        }
        if (!gates.enabled(FeatureGates.KUBELET_TRACING)) {
            errors.add("tracing: Forbidden: disabled by KubeletTracing feature-gate");
        }
        Integer rate = tracing.samplingRatePerMillion();
        if (rate != null && (rate < 0 || rate > 1_000_000)) {
            errors.add("tracing.samplingRatePerMillion: Invalid value: " + rate
                    + ": sampling rate per million must be between 0 and 1000000, inclusive");
        }
    }
}
