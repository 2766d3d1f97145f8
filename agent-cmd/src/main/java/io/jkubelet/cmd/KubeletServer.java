package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import java.util.Objects;

/**
 * Everything the kubelet starts from: its flags and its effective, validated configuration
 * (file &lt; explicit flags, defaults applied), which is immutable.
 *
 * @param flags  the settings that stay flags
 * @param config the effective configuration
 */
public record KubeletServer(KubeletFlags flags, KubeletConfiguration config) {

    public KubeletServer {
        Objects.requireNonNull(flags, "flags");
        Objects.requireNonNull(config, "config");
    }

    /** No {@code --kubeconfig}: no apiserver, pods come only from files and URLs. */
    public boolean standalone() {
        return flags.kubeconfig().isEmpty();
    }
}
