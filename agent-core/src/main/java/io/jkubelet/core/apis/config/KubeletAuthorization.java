package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code authorization}: how authenticated requests to the secure server are authorized. */
public final class KubeletAuthorization {

    /** Authorizes every authenticated request. */
    public static final String MODE_ALWAYS_ALLOW = "AlwaysAllow";
    /** Asks the apiserver with a SubjectAccessReview. */
    public static final String MODE_WEBHOOK = "Webhook";

    @JsonProperty("mode")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String mode = "";

    @JsonProperty("webhook")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private KubeletWebhookAuthorization webhook = new KubeletWebhookAuthorization();

    public String mode() {
        return mode;
    }

    public KubeletAuthorization mode(String value) {
        this.mode = value;
        return this;
    }

    public KubeletWebhookAuthorization webhook() {
        return webhook;
    }
}
