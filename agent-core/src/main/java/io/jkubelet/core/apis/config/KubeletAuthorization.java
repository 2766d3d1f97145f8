package io.jkubelet.core.apis.config;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS;
import static com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.immutables.value.Value;
import tools.jackson.databind.annotation.JsonDeserialize;

/** {@code authorization}: how authenticated requests to the secure server are authorized. Immutable. */
@Value.Immutable
@JsonDeserialize(as = ImmutableKubeletAuthorization.class)
public abstract class KubeletAuthorization {

    /** Authorizes every authenticated request. */
    public static final String MODE_ALWAYS_ALLOW = "AlwaysAllow";
    /** Asks the apiserver with a SubjectAccessReview. */
    public static final String MODE_WEBHOOK = "Webhook";

    @JsonProperty("mode") @JsonInclude(NON_EMPTY) @Value.Default
    public String mode() { return ""; }

    @JsonProperty("webhook") @JsonInclude(ALWAYS) @Value.Default
    public KubeletWebhookAuthorization webhook() { return KubeletWebhookAuthorization.builder().build(); }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder extends ImmutableKubeletAuthorization.Builder {
    }
}
