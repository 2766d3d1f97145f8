package io.jkubelet.docker;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The real registries on loopback that pull tests use: Debian's docker-registry, started by {@code jk_ensure_registry}
 * (bin/lib/common.sh) on 127.0.0.1:5000 (open) and 127.0.0.1:5001 (htpasswd), both serving jkubelet/busybox:1.0 and
 * jkubelet/pause:3.9.
 */
public final class TestRegistries {
    public static final String OPEN = "127.0.0.1:5000";
    public static final String AUTH = "127.0.0.1:5001";
    public static final String USER = "jkubelet";
    public static final String PASSWORD = "jkubelet-registry-secret";

    private TestRegistries() {}

    /** Runs jk_ensure_registry when the registries do not answer as they should. */
    public static void ensure() throws Exception {
        if (status(OPEN) != 200 || status(AUTH) != 401) {
            ensureRegistries();
        }
    }

    private static int status(String registry) {
        try {
            return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()
                    .send(HttpRequest.newBuilder(URI.create("http://" + registry + "/v2/"))
                            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** Runs jk_ensure_registry from the project's bin/lib/common.sh. */
    private static void ensureRegistries() throws Exception {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("bin/lib/common.sh"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("bin/lib/common.sh not found above " + Path.of("").toAbsolutePath());
        }
        Process p = new ProcessBuilder("bash", "-c", "source bin/lib/common.sh && jk_ensure_registry")
                .directory(dir.toFile()).redirectErrorStream(true).start();
        boolean done = p.waitFor(5, TimeUnit.MINUTES);
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!done || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("jk_ensure_registry failed; the pull tests need the local registries:\n"
                    + output);
        }
    }
}
