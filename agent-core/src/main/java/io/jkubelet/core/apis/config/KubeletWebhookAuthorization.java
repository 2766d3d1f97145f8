package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;

/** {@code authorization.webhook}: caching of SubjectAccessReview answers. */
public final class KubeletWebhookAuthorization {

    @JsonProperty("cacheAuthorizedTTL")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration cacheAuthorizedTTL = Duration.ZERO;

    @JsonProperty("cacheUnauthorizedTTL")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration cacheUnauthorizedTTL = Duration.ZERO;

    public Duration cacheAuthorizedTTL() {
        return cacheAuthorizedTTL;
    }

    public KubeletWebhookAuthorization cacheAuthorizedTTL(Duration value) {
        this.cacheAuthorizedTTL = value;
        return this;
    }

    public Duration cacheUnauthorizedTTL() {
        return cacheUnauthorizedTTL;
    }

    public KubeletWebhookAuthorization cacheUnauthorizedTTL(Duration value) {
        this.cacheUnauthorizedTTL = value;
        return this;
    }
}
