package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One {@code registerWithTaints} entry (core/v1 {@code Taint}), decoded strictly here rather than with
 * the fabric8 model, whose classes accept unknown fields.
 */
public final class Taint {

    @JsonProperty("key")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private String key = "";

    @JsonProperty("value")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String value = "";

    @JsonProperty("effect")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private String effect = "";

    /** RFC 3339 time; must not be set in a configuration. */
    @JsonProperty("timeAdded")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private String timeAdded;

    public Taint() {
    }

    public Taint(String key, String value, String effect) {
        this.key = key;
        this.value = value;
        this.effect = effect;
    }

    public String key() {
        return key;
    }

    public String value() {
        return value;
    }

    public String effect() {
        return effect;
    }

    public String timeAdded() {
        return timeAdded;
    }

    @Override
    public String toString() {
        return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect;
    }
}
