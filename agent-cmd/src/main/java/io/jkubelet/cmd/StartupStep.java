package io.jkubelet.cmd;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * A part of start-up run on a thread of its own beside the main path (the first static pod waits only for what it
 * needs), whose result or failure the main path takes up where it must have it.
 */
final class StartupStep<T> {

    /** The step's work: may refuse to start with a message. */
    @FunctionalInterface
    interface Work<T> {
        T run() throws StartupException;
    }

    private final CompletableFuture<T> result = new CompletableFuture<>();

    private StartupStep() {
    }

    /** Starts {@code work} on a daemon thread named {@code startup-<name>}. */
    static <T> StartupStep<T> begin(String name, Work<T> work) {
        StartupStep<T> step = new StartupStep<>();
        Thread.ofPlatform().daemon().name("startup-" + name).start(() -> {
            try {
                step.result.complete(work.run());
            } catch (Throwable t) {
                step.result.completeExceptionally(t);
            }
        });
        return step;
    }

    /** A step with nothing to do, finished with {@code value}. */
    static <T> StartupStep<T> finished(T value) {
        StartupStep<T> step = new StartupStep<>();
        step.result.complete(value);
        return step;
    }

    /**
     * Hands {@code done} the step's failure, or null, once it has finished (at once if it has), for a step nothing
     * waits for.
     */
    void whenFinished(Consumer<Throwable> done) {
        result.whenComplete((value, failure) -> done.accept(failure));
    }

    /** The step's result once it has finished; its refusal or failure as the start-up's. */
    T await() throws StartupException {
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("interrupted while starting", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof StartupException startup) {
                throw startup;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new StartupException(String.valueOf(cause), cause);
        }
    }
}
