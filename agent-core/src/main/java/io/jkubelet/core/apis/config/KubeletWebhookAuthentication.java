package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;

/** {@code authentication.webhook}: bearer tokens checked with TokenReview. */
public final class KubeletWebhookAuthentication {

    @JsonProperty("enabled")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean enabled;

    @JsonProperty("cacheTTL")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration cacheTTL = Duration.ZERO;

    public Boolean enabled() {
        return enabled;
    }

    public KubeletWebhookAuthentication enabled(Boolean value) {
        this.enabled = value;
        return this;
    }

    public Duration cacheTTL() {
        return cacheTTL;
    }

    public KubeletWebhookAuthentication cacheTTL(Duration value) {
        this.cacheTTL = value;
        return this;
    }
}
