package io.jkubelet.docker;

import java.util.function.Supplier;

/** How the adapter calls Docker: every failure translated to the runtime port's exceptions, naming the call. */
final class DockerCalls {
    private DockerCalls() {}

    static <T> T call(String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw DockerErrors.translate(what, e);
        }
    }

    static void requireId(String id, String kind) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException(kind + " id is empty");
        }
    }
}
