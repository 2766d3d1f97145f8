package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import java.util.List;

import static io.jkubelet.cmd.ConfigFlag.flag;

/**
 * The flags of the kubelet server's configuration fields that jkubelet had no flag for: serving, TLS, certificate
 * rotation, authentication and authorization caches (upstream {@code AddKubeletConfigFlags}, same names, types and
 * help). {@link ConfigFlags} marks them deprecated as upstream does.
 */
final class ServerConfigFlags {

    static final List<ConfigFlag> ALL = List.of(
            flag(FlagSpec.bool("enable-server", "Enable the Kubelet's server."),
                    KubeletConfiguration::enableServer,
                    (c, v, earlier) -> c.enableServer(FlagValues.bool(v))),
            flag(FlagSpec.of("authentication-token-webhook-cache-ttl", "duration", "The duration to "
                            + "cache responses from the webhook token authenticator."),
                    c -> c.authentication().webhook().cacheTTL(),
                    (c, v, earlier) -> c.authenticationBuilder().webhookBuilder().cacheTTL(FlagValues.duration(v))),
            flag(FlagSpec.of("authorization-webhook-cache-authorized-ttl", "duration", "The duration to "
                            + "cache 'authorized' responses from the webhook authorizer."),
                    c -> c.authorization().webhook().cacheAuthorizedTTL(),
                    (c, v, earlier) -> c.authorizationBuilder().webhookBuilder()
                            .cacheAuthorizedTTL(FlagValues.duration(v))),
            flag(FlagSpec.of("authorization-webhook-cache-unauthorized-ttl", "duration", "The duration "
                            + "to cache 'unauthorized' responses from the webhook authorizer."),
                    c -> c.authorization().webhook().cacheUnauthorizedTTL(),
                    (c, v, earlier) -> c.authorizationBuilder().webhookBuilder()
                            .cacheUnauthorizedTTL(FlagValues.duration(v))),
            flag(FlagSpec.bool("rotate-server-certificates", "Auto-request and rotate the kubelet "
                            + "serving certificates by requesting new certificates from the kube-apiserver when the "
                            + "certificate expiration approaches."),
                    KubeletConfiguration::serverTLSBootstrap,
                    (c, v, earlier) -> c.serverTLSBootstrap(FlagValues.bool(v))),
            flag(FlagSpec.of("tls-cipher-suites", "strings", "Comma-separated list of cipher suites for "
                            + "the server. If omitted, the default cipher suites will be used."),
                    KubeletConfiguration::tlsCipherSuites,
                    (c, v, earlier) -> ConfigFlag.list(c::tlsCipherSuites, c::addAllTlsCipherSuites, v, earlier)),
            flag(FlagSpec.of("tls-min-version", "string", "Minimum TLS version supported. Possible "
                            + "values: VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13"),
                    KubeletConfiguration::tlsMinVersion,
                    (c, v, earlier) -> c.tlsMinVersion(v)),
            flag(FlagSpec.bool("rotate-certificates", "Auto rotate the kubelet client certificates by "
                            + "requesting new certificates from the kube-apiserver when the certificate expiration "
                            + "approaches."),
                    KubeletConfiguration::rotateCertificates,
                    (c, v, earlier) -> c.rotateCertificates(FlagValues.bool(v))),
            flag(FlagSpec.bool("contention-profiling", "Enable block profiling, if profiling is "
                    + "enabled. jkubelet's JVM "
                    + "has no block profile: start-up warns when it is set."),
                    KubeletConfiguration::enableContentionProfiling,
                    (c, v, earlier) -> c.enableContentionProfiling(FlagValues.bool(v))),
            flag(FlagSpec.of("streaming-connection-idle-timeout", "duration", "Maximum time a streaming "
                            + "connection can be idle before the connection is automatically closed. 0 indicates no "
                            + "timeout. Example: '5m'."),
                    KubeletConfiguration::streamingConnectionIdleTimeout,
                    (c, v, earlier) -> c.streamingConnectionIdleTimeout(FlagValues.duration(v))),
            flag(FlagSpec.of("registry-qps", "int32", "If > 0, limit registry pull QPS to this value.  "
                            + "If 0, unlimited."),
                    KubeletConfiguration::registryPullQPS,
                    (c, v, earlier) -> c.registryPullQPS(FlagValues.int32(v))),
            flag(FlagSpec.of("registry-burst", "int32", "Maximum size of a bursty pulls, temporarily "
                            + "allows pulls to burst to this number, while still not exceeding registry-qps. Only used "
                            + "if --registry-qps > 0"),
                    KubeletConfiguration::registryBurst,
                    (c, v, earlier) -> c.registryBurst(FlagValues.int32(v))));

    private ServerConfigFlags() {
    }
}
