package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code logging} (component-base {@code LoggingConfiguration}): log format, flush frequency,
 * verbosity, per-file verbosity and format options.
 */
public final class LoggingConfiguration {

    /** The traditional klog text format, the default. */
    public static final String FORMAT_TEXT = "text";
    /** One JSON object per message. */
    public static final String FORMAT_JSON = "json";

    @JsonProperty("format")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String format = "";

    @JsonProperty("flushFrequency")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private TimeOrMetaDuration flushFrequency = TimeOrMetaDuration.ZERO;

    /** klog verbosity threshold; a uint32 upstream, range-checked by validation. */
    @JsonProperty("verbosity")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private long verbosity;

    @JsonProperty("vmodule")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private List<VModuleItem> vmodule;

    @JsonProperty("options")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private FormatOptions options = new FormatOptions();

    public String format() {
        return format;
    }

    public LoggingConfiguration format(String value) {
        this.format = value;
        return this;
    }

    public TimeOrMetaDuration flushFrequency() {
        return flushFrequency;
    }

    public LoggingConfiguration flushFrequency(TimeOrMetaDuration value) {
        this.flushFrequency = value;
        return this;
    }

    public long verbosity() {
        return verbosity;
    }

    public LoggingConfiguration verbosity(long value) {
        this.verbosity = value;
        return this;
    }

    /** Per-file verbosity overrides; null when none were given. */
    public List<VModuleItem> vmodule() {
        return vmodule;
    }

    public LoggingConfiguration vmodule(List<VModuleItem> value) {
        this.vmodule = value == null ? null : new ArrayList<>(value);
        return this;
    }

    public FormatOptions options() {
        return options;
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
        @JsonDeserialize(using = KubeletConfigCodec.QuantityStringDeserializer.class)
        private String infoBufferSize = "0";

        public boolean splitStream() {
            return splitStream;
        }

        public String infoBufferSize() {
            return infoBufferSize;
        }
    }
}
