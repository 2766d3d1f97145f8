package io.jkubelet.server;

import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Response;
import io.jkubelet.server.http.Router;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * The debugging extras the kubelet installs beside its debugging handlers, in Java's terms:
 *
 * <ul>
 *   <li>{@code GET /configz}: {@code {"kubeletconfig": <the running v1beta1 configuration>}}.
 *   <li>{@code PUT /debug/flags/v}: the body is the new log verbosity ({@code --v}); other methods 406.
 *   <li>{@code /debug/pprof/}: in place of Go's profiles, {@code goroutine} (and {@code threads}) is a
 *       thread dump of every thread with its stack, and {@code profile?seconds=N} (default 30, at most
 *       300) records N seconds with Java Flight Recorder's {@code profile} settings and answers the
 *       {@code .jfr} file, which JDK Mission Control and {@code jfr print} read.
 * </ul>
 *
 * <p>As upstream's {@code InstallProfilingHandler} and {@code InstallDebugFlagsHandler}, {@code enableProfilingHandler}
 * and {@code enableDebugFlagsHandler} false answer 405 {@code profiling endpoint is disabled.} and {@code flags endpoint
 * is disabled.} on those paths instead.
 */
public final class DebugHandlers {

    /** Upstream's cap on a CPU profile's length is the server's write timeout; this one keeps it short. */
    static final int MAX_PROFILE_SECONDS = 300;

    private final Supplier<byte[]> configz;
    private final IntConsumer verbosity;
    private final boolean profiling;
    private final boolean debugFlags;

    /**
     * Every handler served.
     *
     * @param configz the running configuration as v1beta1 JSON, without apiVersion and kind
     * @param verbosity sets the log verbosity
     */
    public DebugHandlers(Supplier<byte[]> configz, IntConsumer verbosity) {
        this(configz, verbosity, true, true);
    }

    /**
     * @param profiling {@code enableProfilingHandler}: serve {@code /debug/pprof/}
     * @param debugFlags {@code enableDebugFlagsHandler}: serve {@code /debug/flags/v}
     */
    public DebugHandlers(Supplier<byte[]> configz, IntConsumer verbosity, boolean profiling, boolean debugFlags) {
        this.configz = configz;
        this.verbosity = verbosity;
        this.profiling = profiling;
        this.debugFlags = debugFlags;
    }

    public void install(Router.Builder router) {
        router.get("/configz", request -> {
            byte[] config = configz.get();
            byte[] body = new byte[config.length + "{\"kubeletconfig\":}".length()];
            byte[] head = "{\"kubeletconfig\":".getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(head, 0, body, 0, head.length);
            System.arraycopy(config, 0, body, head.length, config.length);
            body[body.length - 1] = '}';
            return Response.json(body);
        });
        if (debugFlags) {
            installDebugFlags(router);
        } else {
            router.any("/debug/flags/v", request -> Response.goError(405, "flags endpoint is disabled."));
        }
        if (profiling) {
            installProfiling(router);
        } else {
            router.any("/debug/pprof/", request -> Response.goError(405, "profiling endpoint is disabled."));
        }
    }

    private void installDebugFlags(Router.Builder router) {
        router.any("/debug/flags/v", request -> {
            if (!request.method().equals("PUT")) {
                return plain(406, "unsupported http method");
            }
            String value = new String(request.body(), StandardCharsets.UTF_8);
            int level;
            try {
                level = Integer.parseInt(value.trim());
                if (level < 0) {
                    throw new NumberFormatException("negative");
                }
            } catch (NumberFormatException e) {
                return plain(400, "failed set klog.logging.verbosity " + value + ": strconv.ParseInt: parsing \"" + value
                        + "\": invalid syntax");
            }
            verbosity.accept(level);
            return plain(200, "successfully set klog.logging.verbosity to " + value);
        });
    }

    private static void installProfiling(Router.Builder router) {
        router.any("/debug/pprof/", Handler.blocking(request -> {
            String profile = request.path().substring("/debug/pprof/".length());
            return switch (profile) {
                case "" -> Response.of(200, "text/html; charset=utf-8", index().getBytes(StandardCharsets.UTF_8));
                case "goroutine", "threads" -> Response.text(200, threadDump());
                case "cmdline" -> Response.text(200, String.join("\u0000", ManagementFactory.getRuntimeMXBean().getInputArguments()));
                case "profile" -> profile(request.queryParam("seconds"));
                default -> Response.goError(404, "Unknown profile");
            };
        }));
    }

    private static Response profile(String secondsParam) throws IOException, ParseException {
        int seconds = 30;
        if (secondsParam != null && !secondsParam.isEmpty()) {
            try {
                seconds = Integer.parseInt(secondsParam);
            } catch (NumberFormatException e) {
                seconds = 0;
            }
            if (seconds <= 0 || seconds > MAX_PROFILE_SECONDS) {
                return Response.goError(400, "seconds must be a whole number from 1 to " + MAX_PROFILE_SECONDS + ", got \""
                        + secondsParam + "\"");
            }
        }
        Path file = Files.createTempFile("jkubelet-profile-", ".jfr");
        try (Recording recording = new Recording(Configuration.getConfiguration("profile"))) {
            recording.setName("jkubelet /debug/pprof/profile");
            recording.start();
            try {
                Thread.sleep(Duration.ofSeconds(seconds));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            recording.stop();
            recording.dump(file);
            return Response.of(200, "application/octet-stream", Files.readAllBytes(file))
                    .withHeader("Content-Disposition", "attachment; filename=\"profile.jfr\"");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    static String threadDump() {
        StringBuilder out = new StringBuilder();
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            out.append('"').append(info.getThreadName()).append("\" #").append(info.getThreadId())
                    .append(info.isDaemon() ? " daemon" : "").append(' ').append(info.getThreadState()).append('\n');
            for (StackTraceElement frame : info.getStackTrace()) {
                out.append("\tat ").append(frame).append('\n');
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String index() {
        return "<html><head><title>/debug/pprof/</title></head><body>\n"
                + "<p>jkubelet is a Java process: Go's profiles are served as their Java counterparts.</p>\n"
                + "<a href=\"goroutine?debug=2\">goroutine</a>: thread dump<br>\n"
                + "<a href=\"profile?seconds=30\">profile</a>: Java Flight Recorder recording (.jfr)<br>\n"
                + "<a href=\"cmdline\">cmdline</a>: JVM arguments<br>\n"
                + "</body></html>\n";
    }

    /** Upstream's {@code writePlainText}: the message and a newline, text/plain, nosniff. */
    private static Response plain(int status, String message) {
        return Response.text(status, message + "\n").withHeader("X-Content-Type-Options", "nosniff");
    }
}
