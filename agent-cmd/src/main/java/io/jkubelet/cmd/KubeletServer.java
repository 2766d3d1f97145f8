package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.eviction.EvictionConfig;
import io.jkubelet.core.objects.ChangeDetectionStrategy;
import java.util.Objects;

/**
 * Everything the kubelet starts from: its flags and its effective, validated configuration
 * (file &lt; explicit flags, defaults applied), which is immutable.
 *
 * @param flags    the settings that stay flags
 * @param config   the effective configuration
 * @param eviction the configuration's eviction thresholds, parsed
 * @param changeDetectionStrategy the configuration's {@code configMapAndSecretChangeDetectionStrategy}, parsed
 */
public record KubeletServer(KubeletFlags flags, KubeletConfiguration config, EvictionConfig eviction,
                            ChangeDetectionStrategy changeDetectionStrategy) {

    public KubeletServer {
        Objects.requireNonNull(flags, "flags");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(eviction, "eviction");
        Objects.requireNonNull(changeDetectionStrategy, "changeDetectionStrategy");
    }

    /** No {@code --kubeconfig}: no apiserver, pods come only from files and URLs. */
    public boolean standalone() {
        return flags.kubeconfig().isEmpty();
    }
}
