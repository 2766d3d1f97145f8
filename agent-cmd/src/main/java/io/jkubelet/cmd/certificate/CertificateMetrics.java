package io.jkubelet.cmd.certificate;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.time.Clock;
import java.time.Duration;

/**
 * The certificate managers' metrics, with upstream's names and HELP texts: each certificate's time to live
 * ({@code +Inf} while there is none or it has expired, as upstream's {@code Current()} then returns nothing) and the
 * failed renewals. Counted from the start, registered in the kubelet's registry once it exists.
 */
public final class CertificateMetrics {
    private static final String RENEW_ERRORS_HELP = "[ALPHA] Counter of certificate renewal errors.";
    private static final String TTL_HELP = " The value is in seconds until certificate expiry (negative if already "
            + "expired). If %s certificate is invalid or unused, the value will be +INF.";

    private final Counter clientRenewErrors = Counter.builder()
            .name("kubelet_certificate_manager_client_expiration_renew_errors").help(RENEW_ERRORS_HELP)
            .withoutExemplars().build();
    private final Counter serverRenewErrors = Counter.builder()
            .name("kubelet_server_expiration_renew_errors").help(RENEW_ERRORS_HELP).withoutExemplars().build();

    /** Counts one failed renewal of the client certificate. */
    public void clientRenewError() {
        clientRenewErrors.inc();
    }

    /** Counts one failed renewal of the serving certificate. */
    public void serverRenewError() {
        serverRenewErrors.inc();
    }

    /** Registers the client certificate's metrics, read from {@code manager}. */
    public void registerClient(PrometheusRegistry registry, CertificateManager manager, Clock clock) {
        register(registry, clientRenewErrors, "kubelet_certificate_manager_client_ttl_seconds",
                "[ALPHA] Gauge of the TTL (time-to-live) of the Kubelet's client certificate." + TTL_HELP.formatted("client"),
                manager, clock);
    }

    /** Registers the serving certificate's metrics, read from {@code manager}. */
    public void registerServer(PrometheusRegistry registry, CertificateManager manager, Clock clock) {
        register(registry, serverRenewErrors, "kubelet_certificate_manager_server_ttl_seconds",
                "[ALPHA] Gauge of the shortest TTL (time-to-live) of the Kubelet's serving certificate."
                        + TTL_HELP.formatted("serving"), manager, clock);
    }

    private static void register(PrometheusRegistry registry, Counter renewErrors, String ttlName, String ttlHelp,
            CertificateManager manager, Clock clock) {
        registry.register(renewErrors);
        GaugeWithCallback.builder().name(ttlName).help(ttlHelp)
                .callback(cb -> cb.call(manager.current()
                        .map(p -> (double) Duration.between(clock.instant(), p.notAfter()).toSeconds())
                        .orElse(Double.POSITIVE_INFINITY)))
                .register(registry);
    }
}
