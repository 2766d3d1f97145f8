package io.jkubelet.cri;

import io.jkubelet.core.logs.LogRotatePolicy;
import io.jkubelet.core.logs.RotatingContainerLogManager;
import io.jkubelet.core.runtime.testing.RuntimePods;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kubelet's own log rotation on containerd: a live CRI log past containerLogMaxSize is moved away, containerd
 * reopens a new one at the same path (ReopenContainerLog), older rotated files are gzipped and only
 * containerLogMaxFiles files remain.
 */
class CriLogRotationTest extends CriPodsTestBase {

    @Test
    void aLogPastItsMaxSizeIsRotatedReopenedCompressedAndPruned() throws Exception {
        RuntimePods.Sandbox sandbox = pods.sandbox("chatty");
        Path logDir = Path.of("/var/log/pods/default_chatty_uid-chatty");
        String id = sandbox.create("app", 0, CriTestSupport.BUSYBOX,
                List.of("sh", "-c", "i=0; while true; do i=$((i+1)); echo line $i of a chatty container; sleep 0.02; done"));
        runtime.startContainer(id);
        Path live = Path.of(runtime.containerStatus(id).logPath());
        // One second per pass, so that each rotated file gets a timestamp of its own.
        AtomicLong second = new AtomicLong(Instant.parse("2026-12-05T03:00:00Z").getEpochSecond());
        Clock ticking = new Clock() {
            @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
            @Override public Clock withZone(java.time.ZoneId zone) { return this; }
            @Override public Instant instant() { return Instant.ofEpochSecond(second.getAndIncrement()); }
        };
        RotatingContainerLogManager manager = new RotatingContainerLogManager(runtime, new LogRotatePolicy(1024, 3),
                Duration.ofSeconds(10), ticking);
        try {
            for (int pass = 0; pass < 4; pass++) {
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(live) && Files.size(live) >= 1024);
                manager.rotateLogs();
            }

            // containerd writes the live file again after each reopen.
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(live) && Files.size(live) > 0);
            assertThat(Files.readString(live)).contains("stdout F line ");
            List<String> rotated = names(live.getParent());
            // containerLogMaxFiles 3: the live file, one gzipped and the newest rotated one, uncompressed.
            assertThat(rotated).hasSize(3).contains("0.log");
            assertThat(rotated).filteredOn(n -> n.matches("0\\.log\\.\\d{8}-\\d{6}\\.gz")).hasSize(1);
            assertThat(rotated).filteredOn(n -> n.matches("0\\.log\\.\\d{8}-\\d{6}")).hasSize(1);
        } finally {
            RuntimePods.removeAll(runtime, node);
            deleteTree(logDir);
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
