package io.jkubelet.core.objects;

import java.util.Arrays;

/**
 * {@code configMapAndSecretChangeDetectionStrategy}: how the kubelet learns that a ConfigMap or Secret its pods use
 * has changed. {@link #WATCH} (the default) watches each object the pods use; {@link #CACHE} keeps each object for a
 * TTL (upstream's default of one minute); {@link #GET} asks the apiserver at every use.
 */
public enum ChangeDetectionStrategy {
    WATCH("Watch"),
    CACHE("Cache"),
    GET("Get");

    private final String value;

    ChangeDetectionStrategy(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    /**
     * The strategy of the configuration's value.
     *
     * @throws IllegalArgumentException for any other value, with upstream's {@code NewMainKubelet} message
     */
    public static ChangeDetectionStrategy of(String value) {
        return Arrays.stream(values()).filter(s -> s.value.equals(value)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown configmap and secret manager mode: " + value));
    }
}
