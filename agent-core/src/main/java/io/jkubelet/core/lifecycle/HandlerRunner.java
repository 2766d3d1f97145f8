package io.jkubelet.core.lifecycle;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ExecAction;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.runtime.ExecResult;
import io.jkubelet.core.runtime.RuntimeService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Runs a container's {@code postStart} or {@code preStop} handler (upstream {@code lifecycle.handlerRunner},
 * {@code pkg/kubelet/lifecycle/handlers.go}): {@code exec} in the container through the runtime,
 * {@code httpGet} through an {@link HttpHookClient}, or {@code sleep}. A failure is a {@link HookException}
 * carrying upstream's message, e.g. {@code Exec lifecycle hook ([sh -c exit 1]) for Container "app" in Pod
 * "web_default(uid)" failed - error: command 'sh -c exit 1' exited with 1: , message: ""}.
 *
 * <p>Thread-safe and stateless; each call blocks until its handler is done (or the timeout passed).
 */
public final class HandlerRunner {
    private static final Logger log = LoggerFactory.getLogger(HandlerRunner.class);

    /** Upstream runs hooks without a timeout of their own ({@code RunInContainer(..., 0)}, a client without one). */
    public static final Duration NO_TIMEOUT = RuntimeService.NO_TIMEOUT;

    /** Upstream's error when a {@code sleep} hook is cut short (its context ended). */
    static final String SLEEP_CUT_SHORT = "container terminated before sleep hook finished";

    /** The pod's IPs, for an {@code httpGet} without a host (upstream asks {@code GetPodStatus}). */
    @FunctionalInterface
    public interface PodIps {
        List<String> of(Pod pod);
    }

    /** How the {@code sleep} handler waits; tests replace it. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    private final RuntimeService runtime;
    private final HttpHookClient http;
    private final PodIps podIps;
    private final Sleeper sleeper;

    public HandlerRunner(RuntimeService runtime, HttpHookClient http, PodIps podIps) {
        this(runtime, http, podIps, d -> Thread.sleep(d));
    }

    public HandlerRunner(RuntimeService runtime, HttpHookClient http, PodIps podIps, Sleeper sleeper) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.http = Objects.requireNonNull(http, "http");
        this.podIps = Objects.requireNonNull(podIps, "podIps");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /**
     * Runs {@code handler} for the container {@code containerId} of {@code pod}.
     *
     * @param timeout how long an exec or HTTP request may take and how long a sleep lasts at most;
     *     {@link #NO_TIMEOUT} for upstream's behaviour. A sleep cut short by it is not a failure: the
     *     caller's deadline decides; a sleep cut short by an interrupt is upstream's failure.
     * @throws HookException when the handler failed, with upstream's message
     * @throws InterruptedException when interrupted during an exec or HTTP request
     */
    public void run(String containerId, Pod pod, Container container, LifecycleHandler handler, Duration timeout)
            throws HookException, InterruptedException {
        if (handler.getExec() != null) {
            runExec(containerId, pod, container, handler.getExec(), timeout);
        } else if (handler.getHttpGet() != null) {
            runHttp(pod, container, handler.getHttpGet(), timeout);
        } else if (handler.getSleep() != null) {
            runSleep(pod, container, handler.getSleep().getSeconds(), timeout);
        } else {
            String err = "invalid handler: " + handler;
            log.error("Cannot run handler: {}", err);
            throw new HookException("Cannot run handler: " + err);
        }
    }

    private void runExec(String containerId, Pod pod, Container container, ExecAction exec, Duration timeout)
            throws HookException {
        List<String> cmd = exec.getCommand() == null ? List.of() : exec.getCommand();
        String error;
        String output = "";
        try {
            ExecResult r = runtime.execSync(containerId, cmd, timeout);
            output = new String(r.stdout(), StandardCharsets.UTF_8) + new String(r.stderr(), StandardCharsets.UTF_8);
            if (r.timedOut()) {
                // What the CRI client reports for an exec past its deadline.
                error = "command " + GoFormat.quote(String.join(" ", cmd)) + " timed out";
            } else if (r.exitCode() != 0) {
                // The CRI client's CodeExitError: the command, its exit code and its stderr.
                error = "command '" + String.join(" ", cmd) + "' exited with " + r.exitCode() + ": "
                        + new String(r.stderr(), StandardCharsets.UTF_8);
            } else {
                return;
            }
        } catch (RuntimeException e) {
            error = e.getMessage();
        }
        String msg = "Exec lifecycle hook (" + GoFormat.list(cmd) + ") for Container " + GoFormat.quote(container.getName())
                + " in Pod " + GoFormat.quote(PodSpecs.format(pod)) + " failed - error: " + error
                + ", message: " + GoFormat.quote(output);
        log.debug("Exec lifecycle hook for container {} in pod {} failed: {}", container.getName(), PodSpecs.format(pod), error);
        throw new HookException(msg);
    }

    private void runHttp(Pod pod, Container container, HTTPGetAction action, Duration timeout)
            throws HookException, InterruptedException {
        String host = action.getHost();
        String error = null;
        Throwable cause = null;
        if (host == null || host.isEmpty()) {
            List<String> ips = podIps.of(pod);
            if (ips.isEmpty()) {
                error = "failed to find networking container: pod " + PodSpecs.format(pod) + " has no IP";
            } else {
                host = ips.get(0);
            }
        }
        if (error == null) {
            try {
                http.get(action, container, host, timeout);
                return;
            } catch (IOException e) {
                error = e.getMessage();
                cause = e;
            }
        }
        String path = action.getPath() == null ? "" : action.getPath();
        String msg = "HTTP lifecycle hook (" + path + ") for Container " + GoFormat.quote(container.getName())
                + " in Pod " + GoFormat.quote(PodSpecs.format(pod)) + " failed - error: " + error;
        log.debug("HTTP lifecycle hook for container {} in pod {} failed: {}", container.getName(), PodSpecs.format(pod), error);
        throw new HookException(msg, cause);
    }

    private void runSleep(Pod pod, Container container, Long seconds, Duration timeout) throws HookException {
        Duration d = Duration.ofSeconds(seconds == null ? 0 : seconds);
        try {
            sleeper.sleep(d.compareTo(timeout) > 0 ? timeout : d);
        } catch (InterruptedException e) {
            // Keep the interrupt for the caller; the hook itself failed as upstream's does when cut short.
            Thread.currentThread().interrupt();
            throw new HookException("Sleep lifecycle hook (" + d.toSeconds() + ") for Container "
                    + GoFormat.quote(container.getName()) + " in Pod " + GoFormat.quote(PodSpecs.format(pod))
                    + " failed - error: " + SLEEP_CUT_SHORT, e);
        }
    }
}
