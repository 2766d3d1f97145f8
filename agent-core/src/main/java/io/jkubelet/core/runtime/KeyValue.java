package io.jkubelet.core.runtime;

/** An environment variable; order matters and names may repeat. */
public record KeyValue(String key, String value) {}
