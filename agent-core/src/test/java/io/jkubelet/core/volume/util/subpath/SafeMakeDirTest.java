package io.jkubelet.core.volume.util.subpath;

import io.jkubelet.core.volume.util.LinuxMounts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A subPath that is not there yet is made within its volume, with the volume root's mode, and never through a symlink
 * that leaves the volume, not even one swapped in after the kubelet looked.
 */
class SafeMakeDirTest {
    @TempDir Path root;
    private Path volume;
    private Path outside;
    private final Subpather subpather = new Subpather(new LinuxMounts());

    @BeforeEach
    void layout() throws IOException {
        volume = Files.createDirectories(root.resolve("pods/u1/volumes/kubernetes.io~empty-dir/data"));
        outside = Files.createDirectories(root.resolve("etc"));
    }

    private static String mode(Path p) throws IOException {
        return Integer.toOctalString((Integer) Files.getAttribute(p, "unix:mode") & 07777);
    }

    @Test
    void eachMissingDirectoryGetsTheVolumesModeWithItsSetgidAndStickyBitsAndGroup() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "other groups need root");
        // A memory-backed emptyDir given to the pod's fsGroup: sticky, setgid, the group's.
        Files.setAttribute(volume, "unix:gid", 4321);
        Files.setAttribute(volume, "unix:mode", 03777);
        Files.createDirectories(volume.resolve("logs"));
        Files.setAttribute(volume.resolve("logs"), "unix:mode", 0755);

        subpather.safeMakeDir("logs/app/today", volume, 03777);

        assertThat(mode(volume.resolve("logs"))).as("an existing directory is left as it is").isEqualTo("755");
        for (Path made : new Path[] {volume.resolve("logs/app"), volume.resolve("logs/app/today")}) {
            assertThat(mode(made)).as(made.toString()).isEqualTo("3777");
        }
        // Without setgid: the mode is set exactly, even on a directory that inherited the bit from its parent.
        Files.setAttribute(volume, "unix:mode", 0777);
        Files.setAttribute(volume.resolve("logs"), "unix:mode", 02755);
        subpather.safeMakeDir("logs/plain", volume, 0777);
        assertThat(mode(volume.resolve("logs/plain"))).isEqualTo("777");
    }

    @Test
    void aSymlinkThatStaysInTheVolumeIsFollowed() throws Exception {
        Files.createDirectories(volume.resolve("real"));
        Files.createSymbolicLink(volume.resolve("link"), Path.of("real"));
        subpather.safeMakeDir("link/new", volume, 0777);
        assertThat(volume.resolve("real/new")).isDirectory();
    }

    @Test
    void aDirectoryOnTheWayThatIsASymlinkOutOfTheVolumeIsRefused() throws Exception {
        Files.createSymbolicLink(volume.resolve("a"), outside);
        assertThatThrownBy(() -> subpather.safeMakeDir("a/cron.d", volume, 0777))
                .isInstanceOf(SubpathException.class)
                .hasMessage("path " + outside + " is outside of allowed base " + volume);
        assertThat(outside.resolve("cron.d")).doesNotExist();
    }

    @Test
    void aDanglingSymlinkOutOfTheVolumeIsNotMadeThrough() throws Exception {
        Files.createSymbolicLink(volume.resolve("a"), outside.resolve("ld.so.preload"));
        assertThatThrownBy(() -> subpather.safeMakeDir("a", volume, 0777))
                .hasMessageStartingWith("cannot create directory " + volume.resolve("a") + ": ");
        assertThat(outside.resolve("ld.so.preload")).doesNotExist();
    }

    @Test
    void aDirectorySwappedForASymlinkAfterTheCheckIsNotMadeThrough() throws Exception {
        Path a = Files.createDirectories(volume.resolve("a"));
        Subpather racing = new Subpather(new LinuxMounts(), () -> { }, Swap.directoryForSymlink(a, outside));

        assertThatThrownBy(() -> racing.safeMakeDir("a/b/c", volume, 0777))
                .hasMessage("cannot create directory " + volume.resolve("a/b/c") + ": path " + outside
                        + " is outside of allowed base " + volume);
        assertThat(outside).isEmptyDirectory();
    }

    @Test
    void aPathThatIsAFileIsNotADirectory() throws Exception {
        Files.writeString(volume.resolve("f"), "x");
        assertThatThrownBy(() -> subpather.safeMakeDir("f", volume, 0777))
                .hasMessage("mkdir " + volume.resolve("f") + ": not a directory");
    }
}
