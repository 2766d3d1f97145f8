package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code authentication.x509}: client-certificate authentication. */
public final class KubeletX509Authentication {

    /** PEM bundle of the CAs whose client certificates are accepted; CN = user, O = groups. */
    @JsonProperty("clientCAFile")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String clientCAFile = "";

    public String clientCAFile() {
        return clientCAFile;
    }

    public KubeletX509Authentication clientCAFile(String value) {
        this.clientCAFile = value;
        return this;
    }
}
