package io.jkubelet.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotModifiedException;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Stopping and removing Docker containers as the port wants it: idempotent (a stopped container stops, a gone
 * one is removed, without error), the stop timeout in whole seconds rounded up.
 */
final class DockerRemovals {
    private final DockerClient requests;
    private final DockerClient streams;
    private final Duration requestTimeout;

    /**
     * @param streams the client without a response timeout: a stop lasts as long as the container's grace
     * @param requestTimeout {@code runtimeRequestTimeout}, which a stop may take beyond the grace period (upstream's
     *     deadline for {@code StopContainer})
     */
    DockerRemovals(DockerClient requests, DockerClient streams, Duration requestTimeout) {
        this.requests = requests;
        this.streams = streams;
        this.requestTimeout = requestTimeout;
    }

    /**
     * Stops a container within its grace period plus {@code runtimeRequestTimeout}; a daemon that has not answered
     * by then fails the stop (the request itself stays with the daemon).
     */
    void stop(String id, Duration timeout, boolean missingIsFine) {
        int seconds = (int) Math.min(Integer.MAX_VALUE, Math.max(0, (timeout.toMillis() + 999) / 1000));
        FutureTask<Void> call = new FutureTask<>(() -> {
            streams.stopContainerCmd(id).withTimeout(seconds).exec();
            return null;
        });
        Thread.ofVirtual().name("docker-stop-" + id).start(call);
        Duration deadline = Duration.ofSeconds(seconds).plus(requestTimeout);
        try {
            call.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new DockerCallException("stop container " + id + ": Docker did not answer within "
                    + RequestTimeouts.text(deadline) + " (the grace period " + seconds + "s and runtimeRequestTimeout "
                    + RequestTimeouts.text(requestTimeout) + ")", 0, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping container " + id, e);
        } catch (ExecutionException e) {
            Throwable failure = e.getCause();
            if (failure instanceof NotModifiedException) {
                return; // 304: nothing to do, which is what an idempotent stop wants.
            }
            if (!(missingIsFine && DockerErrors.isNotFound(failure))) {
                throw DockerErrors.translate("stop container " + id, failure);
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
            requests.removeContainerCmd(id).withForce(true).withRemoveVolumes(true).exec();
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
