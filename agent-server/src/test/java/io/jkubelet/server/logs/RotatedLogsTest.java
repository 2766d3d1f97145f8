package io.jkubelet.server.logs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A container log the runtime rotates (Docker's json-file driver, {@link JsonFileDriver}), read as
 * {@code /containerLogs} reads it: every line the runtime kept, in order, with {@code tailLines} counted across
 * the files and a follower carried past rotations, including one that deleted the file it was reading.
 */
class RotatedLogsTest {
    @TempDir Path dir;

    /** Each entry is 81 bytes: a file holds five lines. */
    private static final long MAX_SIZE = 5 * 81;

    private static String line(int n) {
        return String.format("line %05d", n);
    }

    private static String lines(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i <= to; i++) {
            b.append(line(i)).append('\n');
        }
        return b.toString();
    }

    private JsonFileDriver written(int count, int maxFiles) throws IOException {
        JsonFileDriver driver = new JsonFileDriver(dir.resolve("c-json.log"), MAX_SIZE, maxFiles);
        for (int i = 1; i <= count; i++) {
            driver.write(line(i));
        }
        return driver;
    }

    private static String read(Path log, long tail) throws Exception {
        MemoryBody body = MemoryBody.staying();
        new ContainerLogReader(Duration.ofMillis(1)).read(log, new ContainerLogReader.Options(tail, -1, null, false, false),
                () -> false, body);
        return body.text();
    }

    @Test
    void allTheRuntimeKeptIsReadOldestFirstAndTheTailCountsAcrossFiles() throws Exception {
        JsonFileDriver driver = written(100, 4);
        // Four files of five lines: 81..100 are kept.
        assertThat(Files.list(dir).count()).isEqualTo(4);

        assertThat(read(driver.live, -1)).isEqualTo(lines(81, 100));
        assertThat(read(driver.live, 12)).isEqualTo(lines(89, 100));
        assertThat(read(driver.live, 5)).isEqualTo(lines(96, 100));
        assertThat(read(driver.live, 6)).isEqualTo(lines(95, 100));
        assertThat(read(driver.live, 0)).isEmpty();
        assertThat(read(driver.live, 1000)).isEqualTo(lines(81, 100));
    }

    @Test
    void aLinkToTheLiveFileReadsItsRotatedFilesToo() throws Exception {
        JsonFileDriver driver = written(23, 3);
        Path link = Files.createSymbolicLink(dir.resolve("0.log"), driver.live);

        assertThat(read(link, -1)).isEqualTo(lines(11, 23));
        assertThat(read(link, 4)).isEqualTo(lines(20, 23));
    }

    @Test
    void otherFilesBesideTheLogAreNotRead() throws Exception {
        JsonFileDriver driver = written(12, 5);
        Files.writeString(dir.resolve("c-json.log.20260101-000000"), "{\"log\":\"not ours\\n\"}\n");
        Files.writeString(dir.resolve("c-json.log.1.gz"), "gz");
        Files.writeString(dir.resolve("other-json.log.1"), "{\"log\":\"not ours\\n\"}\n");

        assertThat(read(driver.live, -1)).isEqualTo(lines(1, 12));
    }

    @Test
    void aFollowerReadsEveryLineAcrossRotationsEvenWhenItsFileWasDeleted() throws Exception {
        JsonFileDriver driver = written(3, 3);
        AtomicInteger polls = new AtomicInteger();
        AtomicInteger next = new AtomicInteger(4);
        MemoryBody body = MemoryBody.staying();

        new ContainerLogReader(Duration.ofMillis(1)).read(driver.live,
                new ContainerLogReader.Options(-1, -1, null, true, false), () -> {
                    // Between two looks of the follower the container writes until its log rotated three times:
                    // with three files kept, the file the follower was reading is deleted by the third.
                    int rotations = driver.rotations() + 3;
                    while (driver.rotations() < rotations) {
                        driver.write(line(next.getAndIncrement()));
                    }
                    return polls.incrementAndGet() < 4;
                }, body);

        assertThat(driver.rotations()).isEqualTo(12);
        assertThat(body.text()).isEqualTo(lines(1, next.get() - 1));
    }

    @Test
    void aFollowerFromTheTailCarriesOnPastARotation() throws Exception {
        JsonFileDriver driver = written(9, 5);
        AtomicInteger polls = new AtomicInteger();
        MemoryBody body = MemoryBody.staying();

        new ContainerLogReader(Duration.ofMillis(1)).read(driver.live,
                new ContainerLogReader.Options(2, -1, null, true, false), () -> {
                    if (polls.incrementAndGet() == 1) {
                        driver.write(line(10));
                        driver.rotate();
                        driver.write(line(11));
                        return true;
                    }
                    return false;
                }, body);

        assertThat(body.text()).isEqualTo(lines(8, 11));
    }

    @Test
    void readsWhileTheRuntimeRotatesAllTheTimeSeeEveryKeptLineOnceAndInOrder() throws Exception {
        JsonFileDriver driver = written(20, 3);
        AtomicBoolean done = new AtomicBoolean();
        Thread writer = Thread.ofPlatform().start(() -> {
            try {
                for (int i = 21; i <= 20_000 && !done.get(); i++) {
                    driver.write(line(i));
                    // A rotation about every half millisecond: far faster than any container fills a log file.
                    LockSupport.parkNanos(50_000);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } finally {
                done.set(true);
            }
        });
        List<String> bad = new ArrayList<>();
        int reads = 0;
        while (!done.get() && reads < 300) {
            for (long tail : new long[] {-1, 7}) {
                String text = read(driver.live, tail);
                if (!consecutive(text, tail)) {
                    bad.add("tail " + tail + ":\n" + text);
                }
            }
            reads++;
        }
        done.set(true);
        writer.join();

        assertThat(driver.rotations()).isGreaterThan(10);
        assertThat(bad).isEmpty();
    }

    /** Lines numbered one after another with no gap or repeat; exactly {@code tail} of them when a tail was asked. */
    private static boolean consecutive(String text, long tail) {
        String[] got = text.split("\n");
        if (tail >= 0 && got.length != tail) {
            return false;
        }
        for (int i = 1; i < got.length; i++) {
            int prev = Integer.parseInt(got[i - 1].substring(5));
            if (Integer.parseInt(got[i].substring(5)) != prev + 1) {
                return false;
            }
        }
        return true;
    }
}
