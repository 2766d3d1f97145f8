package io.jkubelet.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotModifiedException;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Stopping and removing Docker containers as the port wants it: idempotent (a stopped container stops, a gone
 * one is removed, without error), the stop timeout in whole seconds rounded up.
 */
final class DockerRemovals {
    private final DockerClient requests;
    private final DockerClient streams;

    /** @param streams the client without a response timeout: a stop lasts as long as the container's grace */
    DockerRemovals(DockerClient requests, DockerClient streams) {
        this.requests = requests;
        this.streams = streams;
    }

    void stop(String id, Duration timeout, boolean missingIsFine) {
        int seconds = (int) Math.min(Integer.MAX_VALUE, Math.max(0, (timeout.toMillis() + 999) / 1000));
        try {
            streams.stopContainerCmd(id).withTimeout(seconds).exec();
        } catch (NotModifiedException alreadyStopped) {
            // 304: nothing to do, which is what an idempotent stop wants.
        } catch (RuntimeException e) {
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
