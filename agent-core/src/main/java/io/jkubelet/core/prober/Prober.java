package io.jkubelet.core.prober;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GRPCAction;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.TCPSocketAction;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.probe.ContainerPorts;
import io.jkubelet.core.probe.ExecProber;
import io.jkubelet.core.probe.GrpcProber;
import io.jkubelet.core.probe.HttpGetRequests;
import io.jkubelet.core.probe.HttpProber;
import io.jkubelet.core.probe.ProbeException;
import io.jkubelet.core.probe.ProbeOutcome;
import io.jkubelet.core.probe.ProbeResult;
import io.jkubelet.core.probe.TcpProber;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.util.Expansion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The container prober (upstream {@code pkg/kubelet/prober/prober.go}): runs the {@code exec},
 * {@code httpGet}, {@code tcpSocket} or {@code grpc} handler of a container's liveness, readiness or startup
 * probe once, with {@code timeoutSeconds} (default 1), and records what a user should see:
 * <ul>
 *   <li>failure: Warning {@code Unhealthy} "Liveness probe failed: &lt;output&gt;", result {@link ProbeResult#FAILURE};</li>
 *   <li>warning (a redirect not followed): Warning {@code ProbeWarning} "Readiness probe warning: &lt;output&gt;",
 *       result {@link ProbeResult#WARNING}, which counts as success;</li>
 *   <li>a handler that could not run (bad port, no pod IP, exec refused by the runtime, no handler) is
 *       retried up to {@value #MAX_PROBE_RETRIES} times in all; if it still errors: Warning {@code Unhealthy}
 *       "Startup probe errored and resulted in unknown state: &lt;error&gt;", result {@link ProbeResult#UNKNOWN}
 *       (the worker keeps its previous result, as upstream throws the errored result away).</li>
 * </ul>
 * A container without a probe of that type is {@link ProbeResult#SUCCESS}. A failure is not retried here:
 * {@code failureThreshold} is the workers' business.
 *
 * <p>Thread-safe: the handlers keep no per-call state; many workers may probe at once.
 */
public final class Prober implements ContainerProber {
    private static final Logger log = LoggerFactory.getLogger(Prober.class);

    /** Upstream {@code maxProbeRetries}: how many times a run that errored is tried in all. */
    public static final int MAX_PROBE_RETRIES = 3;

    static final String REASON_UNHEALTHY = "Unhealthy";
    static final String REASON_PROBE_WARNING = "ProbeWarning";

    private final ExecProber exec;
    private final HttpProber http;
    private final HttpGetRequests httpRequests;
    private final TcpProber tcp;
    private final GrpcProber grpc;
    private final EventRecorder recorder;

    public Prober(ExecProber exec, HttpProber http, HttpGetRequests httpRequests, TcpProber tcp, GrpcProber grpc,
                  EventRecorder recorder) {
        this.exec = Objects.requireNonNull(exec, "exec");
        this.http = Objects.requireNonNull(http, "http");
        this.httpRequests = Objects.requireNonNull(httpRequests, "httpRequests");
        this.tcp = Objects.requireNonNull(tcp, "tcp");
        this.grpc = Objects.requireNonNull(grpc, "grpc");
        this.recorder = Objects.requireNonNull(recorder, "recorder");
    }

    /**
     * The prober with the standard handlers.
     *
     * @param kubeVersion the Kubernetes version we mirror ({@code "v1.30.0"}), for {@code kube-probe/1.30}
     */
    public static Prober create(RuntimeService runtime, EventRecorder recorder, String kubeVersion) {
        return new Prober(new ExecProber(runtime), new HttpProber(), new HttpGetRequests(kubeVersion),
                new TcpProber(), new GrpcProber(kubeVersion), recorder);
    }

    @Override
    public ProbeResult probe(ProbeType type, Pod pod, String podIp, Container container, String containerId) {
        Probe spec = switch (type) {
            case LIVENESS -> container.getLivenessProbe();
            case READINESS -> container.getReadinessProbe();
            case STARTUP -> container.getStartupProbe();
        };
        if (spec == null) {
            return ProbeResult.SUCCESS;
        }
        ProbeOutcome outcome = null;
        ProbeException error = null;
        for (int attempt = 0; attempt < MAX_PROBE_RETRIES; attempt++) {
            try {
                outcome = runProbe(spec, pod, podIp, container, containerId);
                error = null;
                break;
            } catch (ProbeException e) {
                error = e;
            }
        }
        if (error != null) {
            log.debug("{} probe errored for {} container {}: {}", type.displayName(), PodSpecs.format(pod),
                    container.getName(), error.getMessage());
            event(pod, container, REASON_UNHEALTHY, type.displayName() + " probe errored and resulted in "
                    + ProbeResult.UNKNOWN.name().toLowerCase(Locale.ROOT) + " state: " + error.getMessage());
            return ProbeResult.UNKNOWN;
        }
        return switch (outcome.result()) {
            case SUCCESS -> ProbeResult.SUCCESS;
            case WARNING -> {
                event(pod, container, REASON_PROBE_WARNING, type.displayName() + " probe warning: " + outcome.output());
                yield ProbeResult.WARNING;
            }
            case FAILURE -> {
                log.debug("{} probe failed for {} container {}: {}", type.displayName(), PodSpecs.format(pod),
                        container.getName(), outcome.output());
                event(pod, container, REASON_UNHEALTHY, type.displayName() + " probe failed: " + outcome.output());
                yield ProbeResult.FAILURE;
            }
            // A handler that ran but could not tell (upstream "Probe unknown without error") counts as failed.
            case UNKNOWN -> ProbeResult.FAILURE;
        };
    }

    private ProbeOutcome runProbe(Probe spec, Pod pod, String podIp, Container container, String containerId)
            throws ProbeException {
        Duration timeout = Duration.ofSeconds(spec.getTimeoutSeconds() == null || spec.getTimeoutSeconds() <= 0
                ? 1 : spec.getTimeoutSeconds());
        try {
            if (spec.getExec() != null) {
                List<String> command = spec.getExec().getCommand();
                if (command == null || command.isEmpty()) {
                    throw new ProbeException("exec probe of container \"" + container.getName() + "\" has no command");
                }
                return exec.probe(containerId, expandStatic(command, container.getEnv()), timeout);
            }
            if (spec.getHttpGet() != null) {
                return http.probe(httpRequests.forProbe(spec.getHttpGet(), container, podIp), timeout);
            }
            if (spec.getTcpSocket() != null) {
                TCPSocketAction action = spec.getTcpSocket();
                int port = ContainerPorts.resolve(action.getPort(), container);
                String host = action.getHost() == null || action.getHost().isEmpty() ? podIp : action.getHost();
                return tcp.probe(requireHost(host, "tcpSocket", container), port, timeout);
            }
            if (spec.getGrpc() != null) {
                GRPCAction action = spec.getGrpc();
                Integer port = action.getPort();
                if (port == null || port <= 0 || port > 65535) {
                    throw new ProbeException("invalid port number: " + port + " (grpc probe of container \""
                            + container.getName() + "\")");
                }
                return grpc.probe(requireHost(podIp, "grpc", container), action.getService(), port, timeout);
            }
        } catch (RuntimeException e) {
            // A bug or an unexpected runtime answer must not kill the probe worker: report it as an error.
            throw new ProbeException("probe of container \"" + container.getName() + "\" could not run: " + e, e);
        }
        throw new ProbeException("missing probe handler for " + PodSpecs.format(pod) + ":" + container.getName());
    }

    private static String requireHost(String host, String handler, Container container) throws ProbeException {
        if (host == null || host.isEmpty()) {
            throw new ProbeException(handler + " probe of container \"" + container.getName()
                    + "\" has no host and the pod has no IP yet");
        }
        return host;
    }

    /**
     * Upstream {@code ExpandContainerCommandOnlyStatic}: {@code $(VAR)} of the container's {@code env} by
     * its literal {@code value} (a {@code valueFrom} variable expands to the empty string, as upstream).
     */
    private static List<String> expandStatic(List<String> command, List<EnvVar> env) {
        Map<String, String> vars = new HashMap<>();
        if (env != null) {
            for (EnvVar e : env) {
                vars.put(e.getName(), e.getValue() == null ? "" : e.getValue());
            }
        }
        List<String> out = new ArrayList<>(command.size());
        for (String arg : command) {
            out.add(Expansion.expand(arg, vars));
        }
        return out;
    }

    private void event(Pod pod, Container container, String reason, String message) {
        recorder.event(References.container(pod, container), EventRecorder.WARNING, reason, message);
    }
}
