package io.jkubelet.core.apis.config;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import org.immutables.value.Value;
import tools.jackson.databind.annotation.JsonDeserialize;

/** {@code authorization.webhook}: caching of SubjectAccessReview answers. Immutable. */
@Value.Immutable
@JsonDeserialize(as = ImmutableKubeletWebhookAuthorization.class)
public abstract class KubeletWebhookAuthorization {

    @JsonProperty("cacheAuthorizedTTL") @JsonInclude(ALWAYS) @Value.Default
    public Duration cacheAuthorizedTTL() { return Duration.ZERO; }

    @JsonProperty("cacheUnauthorizedTTL") @JsonInclude(ALWAYS) @Value.Default
    public Duration cacheUnauthorizedTTL() { return Duration.ZERO; }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder extends ImmutableKubeletWebhookAuthorization.Builder {
    }
}
