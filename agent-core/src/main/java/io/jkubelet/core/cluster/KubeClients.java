package io.jkubelet.core.cluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.jkubelet.core.util.TokenBucket;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;

/**
 * The one apiserver client of the kubelet (upstream {@code buildKubeletClientConfig}): read from
 * {@code --kubeconfig} (server, CA, client certificate or token), limited to {@code kubeAPIQPS}/{@code kubeAPIBurst},
 * sending kubelet's {@code User-Agent}. Every loop (pod source, status manager, node status, lease, events) shares
 * it. fabric8's own request retries are off: each loop has kubelet's back-off of its own, and a retried request
 * would both hide failures from it and spend the rate limit twice.
 */
public final class KubeClients {

    private KubeClients() {
    }

    /** A client for the kubeconfig file; a missing or unreadable file is reported by its path. */
    public static KubernetesClient create(Path kubeconfig, int qps, int burst, String kubeletVersion) {
        return create(load(kubeconfig, "--kubeconfig"), qps, burst, kubeletVersion);
    }

    /**
     * Reads a kubeconfig file as the client will use it (relative paths against its directory), with fabric8's own
     * request retries off.
     *
     * @param flag the flag that named it ({@code --kubeconfig}, {@code --bootstrap-kubeconfig}), for messages
     * @throws IllegalArgumentException naming the flag and file when it cannot be read or names no server
     */
    public static Config load(Path kubeconfig, String flag) {
        String content;
        try {
            content = Files.readString(kubeconfig, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException(flag + " " + kubeconfig + ": cannot read: " + e.getMessage(), e);
        }
        Config config;
        try {
            config = Config.fromKubeconfig(null, content, kubeconfig.toAbsolutePath().toString());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(flag + " " + kubeconfig + ": " + e.getMessage(), e);
        }
        // fabric8 falls back to an in-cluster default server when the file names none; the kubelet must not.
        if (config.getCurrentContext() == null || config.getMasterUrl() == null || config.getMasterUrl().isEmpty()) {
            throw new IllegalArgumentException(flag + " " + kubeconfig + ": no current context with a cluster server");
        }
        config.setRequestRetryBackoffLimit(0);
        return config;
    }

    /** A client for a ready configuration (tests point it at a mock apiserver). */
    public static KubernetesClient create(Config config, int qps, int burst, String kubeletVersion) {
        return create(config, qps, burst, kubeletVersion, null);
    }

    /**
     * As {@link #create(Config, int, int, String)}, its HTTP client made by {@code httpClients} (the kubelet's own
     * TLS when it manages its client certificate), or fabric8's default when null.
     */
    public static KubernetesClient create(Config config, int qps, int burst, String kubeletVersion,
            HttpClient.Factory httpClients) {
        // client-go: QPS 0 means its default of 5, a negative QPS means no limit.
        ClientRateLimiter limiter = qps < 0 ? null
                : new ClientRateLimiter(new TokenBucket(qps == 0 ? 5 : qps, Math.max(1, burst), Clock.systemUTC()));
        String userAgent = userAgent(kubeletVersion);
        Interceptor interceptor = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                builder.setHeader("User-Agent", userAgent);
                if (limiter != null) {
                    limiter.acquire();
                }
            }
        };
        KubernetesClientBuilder builder = new KubernetesClientBuilder().withConfig(config);
        if (httpClients != null) {
            builder = builder.withHttpClientFactory(httpClients);
        }
        return builder
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("kubelet", interceptor))
                .build();
    }

    /** {@code rest.DefaultKubernetesUserAgent()} as the kubelet sends it: {@code kubelet/v1.30.0 (linux/amd64) kubernetes/jkubelet}. */
    static String userAgent(String kubeletVersion) {
        String arch = switch (System.getProperty("os.arch", "").toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            default -> System.getProperty("os.arch", "unknown");
        };
        return "kubelet/" + kubeletVersion + " (linux/" + arch + ") kubernetes/jkubelet";
    }
}
