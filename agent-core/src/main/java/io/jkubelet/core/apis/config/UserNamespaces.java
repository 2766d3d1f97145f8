package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code userNamespaces}: the length of the UID/GID mapping given to each pod. */
public final class UserNamespaces {

    @JsonProperty("idsPerPod")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Long idsPerPod;

    public Long idsPerPod() {
        return idsPerPod;
    }
}
