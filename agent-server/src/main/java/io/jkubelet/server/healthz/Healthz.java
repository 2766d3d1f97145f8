package io.jkubelet.server.healthz;

import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Request;
import io.jkubelet.server.http.Response;
import io.jkubelet.server.http.Router;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves health checks the way k8s.io/apiserver's {@code healthz.InstallPathHandler} does, texts
 * included.
 *
 * <ul>
 *   <li>{@code GET /healthz}: {@code ok} (200, text/plain) when every check passes; {@code ?verbose}
 *       lists each check ({@code [+]ping ok}) and ends with {@code healthz check passed}. When a check
 *       fails: 500 with the full listing, the failure's reason withheld ({@code [-]syncloop failed: reason
 *       withheld}) and {@code healthz check failed}; the reasons go to the log.
 *   <li>{@code ?exclude=name} (repeatable) skips a check ({@code [+]name excluded: ok}); names that
 *       match no check get a {@code warn:} line.
 *   <li>{@code /healthz/<name>}: that one check, {@code ok} or 500 {@code internal server error:
 *       <reason>}.
 * </ul>
 *
 * Like Go's mux handlers they answer every method. Checks run on a handler thread that may block.
 */
public final class Healthz {

    private static final Logger log = LoggerFactory.getLogger(Healthz.class);

    private Healthz() {}

    /**
     * Registers {@code path} and {@code path/<name>} for each check on {@code router}. With no checks,
     * installs {@link HealthChecker#PING} alone, as upstream does.
     *
     * @throws IllegalArgumentException when two checks share a name
     */
    public static void install(Router.Builder router, String path, List<HealthChecker> checks) {
        install(router, path, checks, null);
    }

    /**
     * As {@link #install(Router.Builder, String, List)}, recording each check run through {@code path} (not through
     * {@code path/<name>}, as upstream) in {@code slis} unless it is null.
     */
    public static void install(Router.Builder router, String path, List<HealthChecker> checks, HealthcheckSlis slis) {
        List<HealthChecker> installed = checks.isEmpty() ? List.of(HealthChecker.PING) : List.copyOf(checks);
        Set<String> names = new LinkedHashSet<>();
        for (HealthChecker check : installed) {
            if (!names.add(check.name())) {
                throw new IllegalArgumentException("health check " + check.name() + " is registered twice on " + path);
            }
        }
        String name = path.replaceFirst("^/", "").split("/")[0];
        router.any(path, Handler.blocking(request -> root(name, installed, request, slis)));
        for (HealthChecker check : installed) {
            router.any(path + "/" + check.name(), Handler.blocking(request -> single(check)));
        }
    }

    private static Response root(String name, List<HealthChecker> checks, Request request, HealthcheckSlis slis) {
        Set<String> excluded = new LinkedHashSet<>(request.queryParams("exclude"));
        StringBuilder individual = new StringBuilder();
        StringBuilder failedVerbose = new StringBuilder();
        List<String> failed = new ArrayList<>();
        for (HealthChecker check : checks) {
            if (excluded.remove(check.name())) {
                individual.append("[+]").append(check.name()).append(" excluded: ok\n");
                continue;
            }
            Optional<String> error = run(check);
            if (slis != null) {
                slis.observe(check.name(), name, error.isEmpty());
            }
            if (error.isPresent()) {
                // The endpoint is public: the reason stays in the log, as upstream does.
                individual.append("[-]").append(check.name()).append(" failed: reason withheld\n");
                failedVerbose.append("[-]").append(check.name()).append(" failed: ").append(error.get()).append('\n');
                failed.add(check.name());
            } else {
                individual.append("[+]").append(check.name()).append(" ok\n");
            }
        }
        if (!excluded.isEmpty()) {
            individual.append("warn: some health checks cannot be excluded: no matches for ")
                    .append(quoted(excluded)).append('\n');
            log.warn("cannot exclude some health checks, no health checks are installed matching {}", quoted(excluded));
        }
        if (!failed.isEmpty()) {
            log.info("{} check failed: {}\n{}", String.join(",", failed), name, failedVerbose);
            return Response.goError(500, individual + name + " check failed");
        }
        if (!request.hasQueryParam("verbose")) {
            return ok("ok");
        }
        return ok(individual + name + " check passed\n");
    }

    private static Response single(HealthChecker check) {
        Optional<String> error = run(check);
        if (error.isPresent()) {
            return Response.goError(500, "internal server error: " + error.get());
        }
        // Upstream writes "ok" without a content type; Go sniffs it as text/plain.
        return Response.text(200, "ok");
    }

    private static Response ok(String body) {
        return Response.text(200, body).withHeader("X-Content-Type-Options", "nosniff");
    }

    private static Optional<String> run(HealthChecker check) {
        try {
            Optional<String> result = check.check();
            return result == null ? Optional.empty() : result;
        } catch (RuntimeException e) {
            return Optional.of(e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    /** Go's {@code formatQuoted} over a sorted set: each name in double quotes, comma-separated. */
    private static String quoted(Set<String> names) {
        return names.stream().sorted().map(n -> '"' + n.replace("\\", "\\\\").replace("\"", "\\\"") + '"').collect(Collectors.joining(","));
    }
}
