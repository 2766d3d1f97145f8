package io.jkubelet.cmd.e2e.apiserver;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * {@link MockApiserver} run as a separate JVM, on a fixed port and state file, so that it can be stopped and started
 * again at the same address with the same objects, as an apiserver restarts.
 */
public final class MockApiserverProcess implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public final Path dir;
    public final Path kubeconfig;
    public final Path state;
    public final Path log;
    public final int port;
    private Process process;

    public MockApiserverProcess(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.kubeconfig = dir.resolve("kubeconfig");
        this.state = dir.resolve("apiserver-state.json");
        this.log = dir.resolve("apiserver.log");
        try (ServerSocket s = new ServerSocket(0)) {
            this.port = s.getLocalPort();
        }
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** The test JVM's classpath (Surefire/Failsafe name it in surefire.test.class.path), for the child JVM. */
    static String classpath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    public MockApiserverProcess start() throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", classpath(), MockApiserver.class.getName(),
                "--port", Integer.toString(port), "--kubeconfig", kubeconfig.toString(), "--state", state.toString()));
        Files.writeString(log, "---- start\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("the mock apiserver exited with " + process.exitValue() + ":\n" + logText());
            }
            return get("/mock/healthz").contains("ok");
        });
        return this;
    }

    /** SIGTERM: the mock saves what it stores and exits. */
    public void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    public boolean alive() {
        return process != null && process.isAlive();
    }

    public String get(String path) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    public String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
