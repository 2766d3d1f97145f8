package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * {@code authentication}: how requests to the kubelet's secure server are authenticated
 * (upstream {@code KubeletAuthentication}). Mutable while the configuration is being built; read-only after.
 */
public final class KubeletAuthentication {

    @JsonProperty("x509")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private KubeletX509Authentication x509 = new KubeletX509Authentication();

    @JsonProperty("webhook")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private KubeletWebhookAuthentication webhook = new KubeletWebhookAuthentication();

    @JsonProperty("anonymous")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private KubeletAnonymousAuthentication anonymous = new KubeletAnonymousAuthentication();

    public KubeletX509Authentication x509() {
        return x509;
    }

    public KubeletWebhookAuthentication webhook() {
        return webhook;
    }

    public KubeletAnonymousAuthentication anonymous() {
        return anonymous;
    }
}
