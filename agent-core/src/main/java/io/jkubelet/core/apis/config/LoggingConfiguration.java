package io.jkubelet.core.apis.config;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS;
import static com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import io.fabric8.kubernetes.api.model.Quantity;
import org.immutables.value.Value;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * {@code logging} (component-base {@code LoggingConfiguration}): log format, flush frequency,
 * verbosity, per-file verbosity and format options. Immutable; its nested options have no setters either.
 */
@Value.Immutable
@JsonDeserialize(as = ImmutableLoggingConfiguration.class)
public abstract class LoggingConfiguration {

    /** The traditional klog text format, the default. */
    public static final String FORMAT_TEXT = "text";
    /** One JSON object per message. */
    public static final String FORMAT_JSON = "json";

    @JsonProperty("format") @JsonInclude(NON_EMPTY) @Value.Default
    public String format() { return ""; }

    @JsonProperty("flushFrequency") @JsonInclude(ALWAYS) @Value.Default
    public TimeOrMetaDuration flushFrequency() { return TimeOrMetaDuration.ZERO; }

    /** klog verbosity threshold; a uint32 upstream, range-checked by validation. */
    @JsonProperty("verbosity") @JsonInclude(ALWAYS)
    public abstract long verbosity();

    /** Per-file verbosity overrides; null when none were given. */
    @JsonProperty("vmodule") @JsonInclude(NON_EMPTY)
    public abstract @Nullable List<VModuleItem> vmodule();

    @JsonProperty("options") @JsonInclude(ALWAYS) @Value.Default
    public FormatOptions options() { return new FormatOptions(); }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder extends ImmutableLoggingConfiguration.Builder {
    }

    /** One {@code vmodule} entry: a file name glob and the verbosity for files that match it. */
    public static final class VModuleItem {
        @JsonProperty("filePattern")
        @JsonInclude(JsonInclude.Include.ALWAYS)
        private String filePattern = "";

        @JsonProperty("verbosity")
        @JsonInclude(JsonInclude.Include.ALWAYS)
        private long verbosity;

        public VModuleItem() {
        }

        public VModuleItem(String filePattern, long verbosity) {
            this.filePattern = filePattern;
            this.verbosity = verbosity;
        }

        public String filePattern() {
            return filePattern;
        }

        public long verbosity() {
            return verbosity;
        }
    }

    /** {@code logging.options}: options of the text and the JSON format. */
    public static final class FormatOptions {
        @JsonProperty("text")
        @JsonInclude(JsonInclude.Include.ALWAYS)
        private OutputRoutingOptions text = new OutputRoutingOptions();

        @JsonProperty("json")
        @JsonInclude(JsonInclude.Include.ALWAYS)
        private OutputRoutingOptions json = new OutputRoutingOptions();

        public FormatOptions() {
        }

        public FormatOptions(OutputRoutingOptions text, OutputRoutingOptions json) {
            this.text = text;
            this.json = json;
        }

        public OutputRoutingOptions text() {
            return text;
        }

        public OutputRoutingOptions json() {
            return json;
        }
    }

    /** Split-stream options shared by both formats. */
    public static final class OutputRoutingOptions {
        @JsonProperty("splitStream")
        @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        private boolean splitStream;

        /** A resource quantity ({@code "0"}, {@code "64Ki"}); Go's zero value prints as {@code "0"}. */
        @JsonProperty("infoBufferSize")
        @JsonInclude(JsonInclude.Include.ALWAYS)
        @JsonDeserialize(using = GoJsonValues.QuantityStringDeserializer.class)
        private String infoBufferSize = "0";

        public OutputRoutingOptions() {
        }

        public OutputRoutingOptions(boolean splitStream, String infoBufferSize) {
            this.splitStream = splitStream;
            this.infoBufferSize = infoBufferSize;
        }

        public boolean splitStream() {
            return splitStream;
        }

        public String infoBufferSize() {
            return infoBufferSize;
        }

        /**
         * {@code infoBufferSize} in bytes.
         *
         * @throws IllegalArgumentException when it is not a quantity, with apimachinery's message
         */
        public long infoBufferSizeBytes() {
            try {
                return Quantity.getAmountInBytes(
                        new Quantity(infoBufferSize)).longValueExact();
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("quantities must match the regular expression "
                        + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", e);
            }
        }
    }
}
