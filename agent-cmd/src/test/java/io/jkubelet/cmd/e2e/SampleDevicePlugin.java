package io.jkubelet.cmd.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * Upstream's sample device plugin ({@code test/images/sample-device-plugin}) as a process: {@code example.com/resource}
 * with devices {@code Dev-1} and {@code Dev-2}; {@code Allocate} mounts the host file {@code /tmp/<device>} at the same
 * path. Its socket is {@code dp.<unix time>} in {@code PLUGIN_SOCK_DIR}; it registers on the kubelet's socket unless
 * it finds {@code /var/lib/kubelet/device-plugins/DEPRECATION}, and then waits for the plugin watcher, so its socket
 * directory is the kubelet's {@code <root-dir>/plugins_registry}.
 */
final class SampleDevicePlugin implements AutoCloseable {
    static final String RESOURCE = "example.com/resource";

    private final Process process;
    final Path socketDir;

    private SampleDevicePlugin(Process process, Path socketDir) {
        this.process = process;
        this.socketDir = socketDir;
    }

    /** Starts the plugin and waits for its socket. */
    static SampleDevicePlugin start(Path socketDir, Path log) throws IOException {
        Files.createDirectories(socketDir);
        long before;
        try (var s = Files.list(socketDir)) {
            before = s.count();
        }
        ProcessBuilder b = new ProcessBuilder(KubeBinaries.bin().resolve("sample-device-plugin").toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        b.environment().put("PLUGIN_SOCK_DIR", socketDir.toString());
        SampleDevicePlugin p = new SampleDevicePlugin(b.start(), socketDir);
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            if (!p.process.isAlive()) {
                throw new IllegalStateException("the sample device plugin exited: " + Files.readString(log));
            }
            return Files.readString(log).contains("Starting to serve on");
        });
        return p;
    }

    /** SIGTERM, as a DaemonSet's pod is stopped; its socket file stays, as Go leaves it. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
