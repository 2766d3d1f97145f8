package io.jkubelet.docker;

import io.jkubelet.docker.engine.DockerEngine;
import io.jkubelet.docker.engine.Durations;
import io.jkubelet.docker.engine.EngineCallException;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Stopping and removing Docker containers as the port wants it: idempotent (a stopped container stops, a gone
 * one is removed, without error), the stop timeout in whole seconds rounded up.
 */
final class DockerRemovals {
    private final DockerEngine engine;
    private final Duration requestTimeout;

    /**
     * @param requestTimeout {@code runtimeRequestTimeout}, which a stop may take beyond the grace period (upstream's
     *     deadline for {@code StopContainer}); the engine's short calls are bounded by the same
     */
    DockerRemovals(DockerEngine engine, Duration requestTimeout) {
        this.engine = engine;
        this.requestTimeout = requestTimeout;
    }

    /**
     * Stops a container within its grace period plus {@code runtimeRequestTimeout}; a daemon that has not answered
     * by then fails the stop (the request itself stays with the daemon).
     */
    void stop(String id, Duration timeout, boolean missingIsFine) {
        int seconds = (int) Math.min(Integer.MAX_VALUE, Math.max(0, (timeout.toMillis() + 999) / 1000));
        try {
            engine.containers().stop(id, Duration.ofSeconds(seconds));
        } catch (EngineCallException.NotModified e) {
            // 304: nothing to do, which is what an idempotent stop wants.
        } catch (EngineCallException.Timeout e) {
            throw new DockerCallException("stop container " + id + ": Docker did not answer within "
                    + Durations.text(Duration.ofSeconds(seconds).plus(requestTimeout)) + " (the grace period " + seconds
                    + "s and runtimeRequestTimeout " + Durations.text(requestTimeout) + ")", 0, e);
        } catch (EngineCallException e) {
            if (!(missingIsFine && DockerErrors.isNotFound(e))) {
                throw DockerErrors.translate("stop container " + id, e);
            }
        }
    }

    static void awaitStop(Future<?> stop) {
        try {
            stop.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the containers of a sandbox", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
        }
    }

    void remove(String id, String kind) {
        try {
            engine.containers().remove(id, true, true);
        } catch (RuntimeException e) {
            if (DockerErrors.isNotFound(e)) {
                return;
            }
            if (DockerErrors.isConflict(e) && DockerErrors.message(e).contains("already in progress")) {
                return; // a concurrent remove of the same container
            }
            throw DockerErrors.translate("remove " + kind + " " + id, e);
        }
    }
}
