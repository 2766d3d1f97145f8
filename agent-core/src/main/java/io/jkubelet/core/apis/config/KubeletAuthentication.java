package io.jkubelet.core.apis.config;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.immutables.value.Value;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * {@code authentication}: how requests to the kubelet's secure server are authenticated
 * (upstream {@code KubeletAuthentication}). Immutable.
 */
@Value.Immutable
@JsonDeserialize(as = ImmutableKubeletAuthentication.class)
public abstract class KubeletAuthentication {

    @JsonProperty("x509") @JsonInclude(ALWAYS) @Value.Default
    public KubeletX509Authentication x509() { return KubeletX509Authentication.builder().build(); }

    @JsonProperty("webhook") @JsonInclude(ALWAYS) @Value.Default
    public KubeletWebhookAuthentication webhook() { return KubeletWebhookAuthentication.builder().build(); }

    @JsonProperty("anonymous") @JsonInclude(ALWAYS) @Value.Default
    public KubeletAnonymousAuthentication anonymous() { return KubeletAnonymousAuthentication.builder().build(); }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder extends ImmutableKubeletAuthentication.Builder {
    }
}
