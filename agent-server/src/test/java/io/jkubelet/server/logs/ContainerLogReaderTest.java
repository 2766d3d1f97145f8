package io.jkubelet.server.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jkubelet.server.http.ResponseStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerLogReaderTest {

    @TempDir
    Path dir;

    @Test
    void aFollowerWhoseClientLeftStopsWaitingForARunningContainer() throws Exception {
        Path log = Files.writeString(dir.resolve("0.log"), "2024-05-01T09:00:00Z stdout F only line\n");
        MemoryBody body = new MemoryBody(3);

        assertThatThrownBy(() -> new ContainerLogReader(Duration.ofMillis(1))
                .read(log, new ContainerLogReader.Options(-1, -1, null, true, false), () -> true, body))
                .isInstanceOf(ResponseStream.ClientGoneException.class);
        assertThat(body.text()).isEqualTo("only line\n");
        assertThat(body.waits.get()).isEqualTo(3);
    }

    @Test
    void aFollowerAsksTheRuntimeBeforeEachWaitAndEndsWhenItSaysStopped() throws Exception {
        Path log = Files.writeString(dir.resolve("0.log"), "2024-05-01T09:00:00Z stdout F a\n");
        AtomicInteger asked = new AtomicInteger();
        MemoryBody body = MemoryBody.staying();

        new ContainerLogReader(Duration.ofMillis(1)).read(log, new ContainerLogReader.Options(-1, -1, null, true, false), () -> {
            if (asked.incrementAndGet() == 2) {
                Files.writeString(log, "2024-05-01T09:00:01Z stdout F written just before the exit\n", StandardOpenOption.APPEND);
                return false;
            }
            return true;
        }, body);

        assertThat(body.text()).isEqualTo("a\nwritten just before the exit\n");
        assertThat(asked.get()).isEqualTo(2);
    }

    @Test
    void aRuntimeErrorWhileFollowingCountsAsStopped() throws Exception {
        Path log = Files.writeString(dir.resolve("0.log"), "2024-05-01T09:00:00Z stdout F a\n");
        MemoryBody body = MemoryBody.staying();

        new ContainerLogReader(Duration.ofMillis(1)).read(log, new ContainerLogReader.Options(-1, -1, null, true, false), () -> {
            throw new IllegalStateException("no such container");
        }, body);

        assertThat(body.text()).isEqualTo("a\n");
    }

    @Test
    void tailFindsLineStartsAcrossBlockBoundaries() throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            text.append("x".repeat(i % 37)).append(i).append('\n');
        }
        Path file = Files.writeString(dir.resolve("big"), text);
        String[] lines = text.toString().split("\n");
        try (FileChannel ch = FileChannel.open(file)) {
            for (int n : new int[] {0, 1, 2, 250, 299, 1000, 2999, 3000, 5000}) {
                long start = LogTailIndex.find(ch, n);
                String tail = text.substring((int) start);
                int expected = Math.min(n, lines.length);
                assertThat(tail.isEmpty() ? 0 : tail.split("\n").length).as("tail %d", n).isEqualTo(expected);
                if (expected > 0) {
                    assertThat(tail).as("tail %d", n).startsWith(lines[lines.length - expected] + "\n");
                }
            }
            assertThat(LogTailIndex.find(ch, -1)).isZero();
        }
    }
}
