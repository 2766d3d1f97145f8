package io.jkubelet.core.volume;

import io.jkubelet.core.testing.PlainTempDir;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Upstream's {@code SetVolumeOwnership} on a real tree: the group and its bits on every file, {@code setgid} on every
 * directory, links given the group but their targets' modes left alone, and {@code OnRootMismatch} skipping a volume
 * whose root already matches.
 */
class VolumeOwnershipTest {
    private static final long FS_GROUP = 4321;

    @TempDir Path dir;
    Path volume;

    @BeforeEach
    void aVolumeOwnedByRoot() throws IOException {
        assumeTrue("root".equals(System.getProperty("user.name")), "giving files to another group needs root");
        PlainTempDir.of(dir);
        volume = Files.createDirectories(dir.resolve("volume"));
        Files.createDirectories(volume.resolve("sub"));
        Files.writeString(volume.resolve("sub/data"), "x");
        Files.writeString(volume.resolve("private"), "y");
        Files.writeString(dir.resolve("outside"), "z");
        Files.createSymbolicLink(volume.resolve("link"), dir.resolve("outside"));
        mode(volume, 0755);
        mode(volume.resolve("sub"), 0700);
        mode(volume.resolve("sub/data"), 0600);
        mode(volume.resolve("private"), 0400);
        mode(dir.resolve("outside"), 0600);
    }

    private static void mode(Path p, int mode) throws IOException {
        Files.setAttribute(p, "unix:mode", mode);
    }

    private static int mode(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777;
    }

    private static int gid(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:gid", LinkOption.NOFOLLOW_LINKS);
    }

    @Test
    void everyFileGetsTheGroupAndItsReadWriteAndEveryDirectorySetgid() throws IOException {
        VolumeOwnership.setVolumeOwnership(volume, FS_GROUP, null, false);

        for (Path p : new Path[] {volume, volume.resolve("sub"), volume.resolve("sub/data"), volume.resolve("private"),
                volume.resolve("link")}) {
            assertThat(gid(p)).as(p.toString()).isEqualTo(FS_GROUP);
        }
        assertThat(Integer.toOctalString(mode(volume))).isEqualTo("2775");
        assertThat(Integer.toOctalString(mode(volume.resolve("sub")))).isEqualTo("2770");
        assertThat(Integer.toOctalString(mode(volume.resolve("sub/data")))).isEqualTo("660");
        assertThat(Integer.toOctalString(mode(volume.resolve("private")))).isEqualTo("660");
        assertThat(gid(dir.resolve("outside"))).as("a link's target outside is not touched").isZero();
        assertThat(Integer.toOctalString(mode(dir.resolve("outside")))).isEqualTo("600");
    }

    @Test
    void aReadOnlyVolumeGivesTheGroupReadOnly() throws IOException {
        VolumeOwnership.setVolumeOwnership(volume, FS_GROUP, "Always", true);

        assertThat(Integer.toOctalString(mode(volume.resolve("sub")))).isEqualTo("2750");
        assertThat(Integer.toOctalString(mode(volume.resolve("sub/data")))).isEqualTo("640");
    }

    @Test
    void onRootMismatchChangesNothingWhenTheRootAlreadyMatchesAndEverythingWhenItDoesNot() throws IOException {
        Files.setAttribute(volume, "unix:gid", (int) FS_GROUP);
        mode(volume, 02770);

        VolumeOwnership.setVolumeOwnership(volume, FS_GROUP, VolumeOwnership.ON_ROOT_MISMATCH, false);
        assertThat(gid(volume.resolve("sub/data"))).isZero();
        assertThat(Integer.toOctalString(mode(volume.resolve("sub/data")))).isEqualTo("600");

        mode(volume, 0770); // no setgid: a mismatch
        VolumeOwnership.setVolumeOwnership(volume, FS_GROUP, VolumeOwnership.ON_ROOT_MISMATCH, false);
        assertThat(gid(volume.resolve("sub/data"))).isEqualTo(FS_GROUP);
        assertThat(Integer.toOctalString(mode(volume))).isEqualTo("2770");
    }
}
