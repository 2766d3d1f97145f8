package io.jkubelet.core.runtime;

/** A runtime's name ({@code docker}), version and API version. */
public record RuntimeVersion(String runtimeName, String runtimeVersion, String runtimeApiVersion) {}
