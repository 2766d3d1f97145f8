package io.jkubelet.core.apis.config;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS;
import static com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import org.immutables.value.Value;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.annotation.JsonDeserialize;

/** {@code authentication.webhook}: bearer tokens checked with TokenReview. Immutable. */
@Value.Immutable
@JsonDeserialize(as = ImmutableKubeletWebhookAuthentication.class)
public abstract class KubeletWebhookAuthentication {

    @JsonProperty("enabled") @JsonInclude(NON_NULL)
    public abstract @Nullable Boolean enabled();

    @JsonProperty("cacheTTL") @JsonInclude(ALWAYS) @Value.Default
    public Duration cacheTTL() { return Duration.ZERO; }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder extends ImmutableKubeletWebhookAuthentication.Builder {
    }
}
