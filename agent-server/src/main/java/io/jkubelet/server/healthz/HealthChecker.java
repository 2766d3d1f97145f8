package io.jkubelet.server.healthz;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A named health check, as in k8s.io/apiserver's {@code healthz.HealthChecker}: {@code /healthz} runs
 * every check, {@code /healthz/<name>} runs one.
 *
 * <p>Implementations are called from HTTP handler threads, possibly several at once, so must be
 * thread-safe; they should be quick (they run on each probe of {@code /healthz}). A check that throws
 * counts as failed, with the exception's message as its reason.
 */
public interface HealthChecker {

    /** The check's name: a path segment such as {@code ping}, {@code log}, {@code syncloop}. */
    String name();

    /** Empty when healthy; otherwise why not (shown only on {@code /healthz/<name>} and in logs). */
    Optional<String> check();

    /** The check that always passes, as upstream's {@code PingHealthz}. */
    HealthChecker PING = named("ping", Optional::empty);

    /** A check named {@code name} that runs {@code check}. */
    static HealthChecker named(String name, Supplier<Optional<String>> check) {
        Objects.requireNonNull(check, "check");
        if (name == null || name.isEmpty() || name.contains("/")) {
            throw new IllegalArgumentException("health check name must be a non-empty path segment, got: " + name);
        }
        return new HealthChecker() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Optional<String> check() {
                return check.get();
            }

            @Override
            public String toString() {
                return "HealthChecker[" + name + "]";
            }
        };
    }
}
