package io.jkubelet.core.runtime;

/** Credentials for one registry, as in a docker config file entry. */
public record RegistryAuth(String username, String password, String serverAddress, String identityToken) {}
