package io.jkubelet.docker.engine;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Base64;

/**
 * Registry credentials for a pull, sent as the {@code X-Registry-Auth} header: this object's JSON, base64url
 * encoded, as the Engine API documents.
 */
public record AuthConfig(@JsonProperty("username") String username, @JsonProperty("password") String password,
                         @JsonProperty("auth") String auth, @JsonProperty("serveraddress") String serverAddress,
                         @JsonProperty("identitytoken") String identityToken,
                         @JsonProperty("registrytoken") String registryToken) {

    String header() {
        return Base64.getUrlEncoder().encodeToString(EngineJson.write(this));
    }

    @Override
    public String toString() {
        return "AuthConfig[" + username + "@" + serverAddress + "]"; // never the secrets
    }
}
