package io.jkubelet.core.objects;

import java.util.Arrays;

/**
 * {@code configMapAndSecretChangeDetectionStrategy}: how the kubelet learns that a ConfigMap or Secret its pods use
 * has changed. {@link #GET} asks the apiserver at every use; {@link #CACHE} keeps each object for a TTL (upstream's
 * default of one minute); {@link #WATCH}, upstream's default (a watch per object the pods use), is served as
 * {@link #CACHE} by jkubelet, which says so once at start.
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

    /** What a cluster node says once at start about this strategy: Watch is not done as upstream does it. */
    public java.util.Optional<String> startupWarning() {
        if (this != WATCH) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("configMapAndSecretChangeDetectionStrategy: Watch is not supported: ConfigMaps and "
                + "Secrets are not watched but read with a GET kept for " + CachedGet.DEFAULT_TTL.toSeconds()
                + "s (the Cache strategy), so a change reaches the pods' volumes within that time and their next sync; "
                + "set Cache (or Get) to silence this");
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
