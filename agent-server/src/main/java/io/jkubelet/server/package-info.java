/**
 * The kubelet's HTTP servers: {@link io.jkubelet.server.ReadOnlyServer} (readOnlyPort) and {@link
 * io.jkubelet.server.HealthzServer} (healthzPort), built from {@link io.jkubelet.server.KubeletHandlers}
 * over the small framework in {@code io.jkubelet.server.http}; the core is reached only through {@link
 * io.jkubelet.server.KubeletView} and {@link io.jkubelet.server.healthz.HealthChecker}.
 */
package io.jkubelet.server;
