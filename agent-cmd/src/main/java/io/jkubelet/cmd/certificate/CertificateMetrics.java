package io.jkubelet.cmd.certificate;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.time.Clock;
import java.time.Duration;

/**
 * The certificate managers' metrics, with upstream's names and HELP texts: the client certificate's time to live
 * ({@code +Inf} while there is none or it has expired, as upstream's {@code Current()} then returns nothing) and the
 * failed renewals. Counted from the start, registered in the kubelet's registry once it exists.
 */
public final class CertificateMetrics {
    private final Counter clientRenewErrors = Counter.builder()
            .name("kubelet_certificate_manager_client_expiration_renew_errors")
            .help("[ALPHA] Counter of certificate renewal errors.").withoutExemplars().build();

    /** Counts one failed renewal of the client certificate. */
    public void clientRenewError() {
        clientRenewErrors.inc();
    }

    /** Registers the client certificate's metrics, read from {@code manager}. */
    public void registerClient(PrometheusRegistry registry, CertificateManager manager, Clock clock) {
        registry.register(clientRenewErrors);
        GaugeWithCallback.builder().name("kubelet_certificate_manager_client_ttl_seconds")
                .help("[ALPHA] Gauge of the TTL (time-to-live) of the Kubelet's client certificate. The value is in seconds "
                        + "until certificate expiry (negative if already expired). If client certificate is invalid or "
                        + "unused, the value will be +INF.")
                .callback(cb -> cb.call(manager.current()
                        .map(p -> (double) Duration.between(clock.instant(), p.notAfter()).toSeconds())
                        .orElse(Double.POSITIVE_INFINITY)))
                .register(registry);
    }
}
