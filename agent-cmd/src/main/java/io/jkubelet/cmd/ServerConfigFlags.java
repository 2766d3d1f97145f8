package io.jkubelet.cmd;

import io.jkubelet.cmd.ConfigFlags.ConfigFlag;
import java.util.List;

/**
 * The flags of the kubelet server's configuration fields that jkubelet had no flag for: serving, TLS, certificate
 * rotation, authentication and authorization caches (upstream {@code AddKubeletConfigFlags}, same names, types and
 * help). {@link ConfigFlags} marks them deprecated as upstream does.
 */
final class ServerConfigFlags {

    static final List<ConfigFlag> ALL = List.of(
            ConfigFlags.flag(FlagSpec.bool("enable-server", "Enable the Kubelet's server. (default true)"),
                    (c, v, earlier) -> c.enableServer(FlagValues.bool(v))),
            ConfigFlags.flag(FlagSpec.of("authentication-token-webhook-cache-ttl", "duration", "The duration to "
                            + "cache responses from the webhook token authenticator. (default 2m0s)"),
                    (c, v, earlier) -> c.authenticationBuilder().webhookBuilder().cacheTTL(FlagValues.duration(v))),
            ConfigFlags.flag(FlagSpec.of("authorization-webhook-cache-authorized-ttl", "duration", "The duration to "
                            + "cache 'authorized' responses from the webhook authorizer. (default 5m0s)"),
                    (c, v, earlier) -> c.authorizationBuilder().webhookBuilder()
                            .cacheAuthorizedTTL(FlagValues.duration(v))),
            ConfigFlags.flag(FlagSpec.of("authorization-webhook-cache-unauthorized-ttl", "duration", "The duration "
                            + "to cache 'unauthorized' responses from the webhook authorizer. (default 30s)"),
                    (c, v, earlier) -> c.authorizationBuilder().webhookBuilder()
                            .cacheUnauthorizedTTL(FlagValues.duration(v))),
            ConfigFlags.flag(FlagSpec.bool("rotate-server-certificates", "Auto-request and rotate the kubelet "
                            + "serving certificates by requesting new certificates from the kube-apiserver when the "
                            + "certificate expiration approaches."),
                    (c, v, earlier) -> c.serverTLSBootstrap(FlagValues.bool(v))),
            ConfigFlags.flag(FlagSpec.of("tls-cipher-suites", "strings", "Comma-separated list of cipher suites for "
                            + "the server. If omitted, the default cipher suites will be used."),
                    (c, v, earlier) -> ConfigFlags.list(c::tlsCipherSuites, c::addAllTlsCipherSuites, v, earlier)),
            ConfigFlags.flag(FlagSpec.of("tls-min-version", "string", "Minimum TLS version supported. Possible "
                            + "values: VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13"),
                    (c, v, earlier) -> c.tlsMinVersion(v)),
            ConfigFlags.flag(FlagSpec.bool("rotate-certificates", "Auto rotate the kubelet client certificates by "
                            + "requesting new certificates from the kube-apiserver when the certificate expiration "
                            + "approaches."),
                    (c, v, earlier) -> c.rotateCertificates(FlagValues.bool(v))),
            ConfigFlags.flag(FlagSpec.bool("contention-profiling", "Enable block profiling, if profiling is "
                    + "enabled. jkubelet's JVM "
                    + "has no block profile: start-up warns when it is set."),
                    (c, v, earlier) -> c.enableContentionProfiling(FlagValues.bool(v))),
            ConfigFlags.flag(FlagSpec.of("streaming-connection-idle-timeout", "duration", "Maximum time a streaming "
                            + "connection can be idle before the connection is automatically closed. 0 indicates no "
                            + "timeout. Example: '5m'. (default 4h0m0s)"),
                    (c, v, earlier) -> c.streamingConnectionIdleTimeout(FlagValues.duration(v))),
            ConfigFlags.flag(FlagSpec.of("registry-qps", "int32", "If > 0, limit registry pull QPS to this value.  "
                            + "If 0, unlimited. (default 5)"),
                    (c, v, earlier) -> c.registryPullQPS(FlagValues.int32(v))),
            ConfigFlags.flag(FlagSpec.of("registry-burst", "int32", "Maximum size of a bursty pulls, temporarily "
                            + "allows pulls to burst to this number, while still not exceeding registry-qps. Only used "
                            + "if --registry-qps > 0 (default 10)"),
                    (c, v, earlier) -> c.registryBurst(FlagValues.int32(v))));

    private ServerConfigFlags() {
    }
}
