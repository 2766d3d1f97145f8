package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code tracing} (component-base {@code TracingConfiguration}): OpenTelemetry export settings. */
public final class TracingConfiguration {

    @JsonProperty("endpoint")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private String endpoint;

    @JsonProperty("samplingRatePerMillion")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer samplingRatePerMillion;

    public String endpoint() {
        return endpoint;
    }

    public Integer samplingRatePerMillion() {
        return samplingRatePerMillion;
    }
}
