package io.jkubelet.core.volume;

import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AtomicWriterTest {
    @TempDir Path dir;
    private final FakeClock clock = new FakeClock();

    private static FileProjection file(String s, int mode) {
        return new FileProjection(s.getBytes(StandardCharsets.UTF_8), mode);
    }

    private static String read(Path p) throws Exception {
        return Files.readString(p);
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    private java.util.List<String> timestampedDirs() throws Exception {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\.\\.\\d{4}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_\\d{2}\\.\\d+"))
                    .toList();
        }
    }

    @Test
    void writesUpstreamsLayoutOfTimestampedDirDataLinkAndPerKeyLinks() throws Exception {
        Map<String, FileProjection> payload = new LinkedHashMap<>();
        payload.put("game.properties", file("lives=3", 0644));
        payload.put("conf/nested.txt", file("deep", 0400));
        assertThat(new AtomicWriter(dir, clock).write(payload)).isTrue();

        var ts = timestampedDirs();
        assertThat(ts).hasSize(1);
        assertThat(ts.get(0)).startsWith("..2026_01_01_00_00_00.");
        assertThat(Files.readSymbolicLink(dir.resolve("..data"))).isEqualTo(Path.of(ts.get(0)));
        assertThat(Files.readSymbolicLink(dir.resolve("game.properties"))).isEqualTo(Path.of("..data/game.properties"));
        assertThat(Files.readSymbolicLink(dir.resolve("conf"))).isEqualTo(Path.of("..data/conf"));
        assertThat(read(dir.resolve("game.properties"))).isEqualTo("lives=3");
        assertThat(read(dir.resolve("conf/nested.txt"))).isEqualTo("deep");
        assertThat(mode(dir.resolve("game.properties"))).isEqualTo("rw-r--r--");
        assertThat(mode(dir.resolve("conf/nested.txt"))).isEqualTo("r--------");
        assertThat(dir.resolve("..data_tmp")).doesNotExist();
    }

    @Test
    void anUpdateSwapsDataToANewDirRemovesTheOldOneAndStaleKeys() throws Exception {
        AtomicWriter w = new AtomicWriter(dir, clock);
        w.write(Map.of("a", file("1", 0644), "b", file("2", 0644)));
        String first = timestampedDirs().get(0);
        Path viaLink = dir.resolve("a");

        clock.advance(Duration.ofSeconds(61));
        assertThat(w.write(Map.of("a", file("changed", 0600)))).isTrue();

        var ts = timestampedDirs();
        assertThat(ts).hasSize(1).doesNotContain(first);
        assertThat(ts.get(0)).startsWith("..2026_01_01_00_01_01.");
        assertThat(Files.readSymbolicLink(dir.resolve("..data"))).isEqualTo(Path.of(ts.get(0)));
        // The same path a container opened before now reads the new content.
        assertThat(read(viaLink)).isEqualTo("changed");
        assertThat(mode(viaLink)).isEqualTo("rw-------");
        assertThat(dir.resolve("b")).doesNotExist();
        assertThat(Files.isSymbolicLink(dir.resolve("b"))).isFalse();
    }

    @Test
    void theSamePayloadAgainWritesNothing() throws Exception {
        AtomicWriter w = new AtomicWriter(dir, clock);
        w.write(Map.of("a", file("1", 0644)));
        String first = timestampedDirs().get(0);
        clock.advance(Duration.ofMinutes(5));
        assertThat(w.write(Map.of("a", file("1", 0644)))).isFalse();
        assertThat(timestampedDirs()).containsExactly(first);
        // Upstream's shouldWritePayload compares the content only: a mode that an fsGroup changed is no update.
        Files.setPosixFilePermissions(dir.resolve("a"), PosixFilePermissions.fromString("rw-rw-r--"));
        assertThat(w.write(Map.of("a", file("1", 0644)))).isFalse();
        assertThat(timestampedDirs()).containsExactly(first);
    }

    @Test
    void permissionsAreSetOnceTheNewVersionIsWrittenAndBeforeItIsVisible() throws Exception {
        AtomicWriter w = new AtomicWriter(dir, clock);
        w.write(Map.of("a", file("1", 0644)));
        String first = timestampedDirs().get(0);
        clock.advance(Duration.ofSeconds(1));
        java.util.List<String> seen = new java.util.ArrayList<>();
        w.write(Map.of("a", file("2", 0644)), tsDir -> {
            seen.add(Files.readString(tsDir.resolve("a")));
            seen.add(Files.readString(dir.resolve("a")));
            seen.add(Files.readSymbolicLink(dir.resolve("..data")).toString());
        });
        assertThat(seen).containsExactly("2", "1", first);
        // Nothing written, nothing to set.
        w.write(Map.of("a", file("2", 0644)), tsDir -> {
            throw new AssertionError("nothing was written");
        });
    }

    @Test
    void aFailureToSetThePermissionsLeavesTheOldVersionVisible() throws Exception {
        AtomicWriter w = new AtomicWriter(dir, clock);
        w.write(Map.of("a", file("1", 0644)));
        clock.advance(Duration.ofSeconds(1));
        assertThatThrownBy(() -> w.write(Map.of("a", file("2", 0644)), tsDir -> {
            throw new java.io.IOException("cannot chown");
        })).hasMessage("cannot chown");
        assertThat(read(dir.resolve("a"))).isEqualTo("1");
    }

    @Test
    void anEmptyPayloadStillGivesTheLayout() throws Exception {
        new AtomicWriter(dir, clock).write(Map.of());
        assertThat(Files.isSymbolicLink(dir.resolve("..data"))).isTrue();
        assertThat(timestampedDirs()).hasSize(1);
    }

    @Test
    void pathsOutsideTheVolumeOrReservedAreRefused() {
        AtomicWriter w = new AtomicWriter(dir, clock);
        assertThatThrownBy(() -> w.write(Map.of("/etc/passwd", file("x", 0644))))
                .hasMessageContaining("\"/etc/passwd\": must be relative path");
        assertThatThrownBy(() -> w.write(Map.of("a/../../x", file("x", 0644))))
                .hasMessageContaining("must not contain '..'");
        assertThatThrownBy(() -> w.write(Map.of("..data", file("x", 0644))))
                .hasMessageContaining("must not start with '..'");
    }
}
