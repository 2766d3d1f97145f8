package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code authentication.anonymous}: requests no other method rejects become {@code system:anonymous}. */
public final class KubeletAnonymousAuthentication {

    @JsonProperty("enabled")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean enabled;

    public Boolean enabled() {
        return enabled;
    }

    public KubeletAnonymousAuthentication enabled(Boolean value) {
        this.enabled = value;
        return this;
    }
}
