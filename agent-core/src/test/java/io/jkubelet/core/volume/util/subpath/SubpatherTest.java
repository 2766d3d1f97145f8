package io.jkubelet.core.volume.util.subpath;

import io.jkubelet.core.volume.util.LinuxMounts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A subPath bind-mounted for the runtime with real mounts (upstream's CVE-2017-1002101 fix): a symlink a container
 * wrote into its volume never takes another container's subPath out of the volume, not even one swapped in between
 * the check and the mount; one that stays within the volume works; the mounts go with the volume's clean-up.
 */
class SubpatherTest {
    @TempDir Path root;
    private Path podDir;
    private Path volume;
    private Path outside;

    @BeforeEach
    void layout() throws IOException {
        MountTable.assumeCanMount();
        podDir = root.resolve("pods/u1");
        volume = Files.createDirectories(podDir.resolve("volumes/kubernetes.io~empty-dir/data"));
        outside = Files.createDirectories(root.resolve("host-secrets"));
        Files.writeString(outside.resolve("shadow"), "root:secret");
    }

    @AfterEach
    void unmountLeftovers() throws Exception {
        if (root != null) {
            MountTable.unmountAll(root);
        }
    }

    private Subpath subpath(int index, String container, String subPath) {
        return new Subpath(index, volume.resolve(subPath), "data", volume, podDir, container);
    }

    private Path target(int index, String container) {
        return podDir.resolve("volume-subpaths/data/" + container + "/" + index);
    }

    @Test
    void aSymlinkToAnAbsolutePathOutsideTheVolumeIsRefusedAndNothingIsMounted() throws Exception {
        Files.createSymbolicLink(volume.resolve("x"), outside);
        assertThatThrownBy(() -> new Subpather(new LinuxMounts()).prepareSafeSubpath(subpath(0, "app", "x")))
                .isInstanceOf(SubpathException.class)
                .hasMessage("subpath \"" + outside + "\" not within volume path \"" + volume + "\"");
        assertThat(MountTable.below(root)).isEmpty();
        assertThat(podDir.resolve("volume-subpaths")).doesNotExist();
    }

    @Test
    void aRelativeSymlinkClimbingOutOfTheVolumeIsRefused() throws Exception {
        // data -> empty-dir -> volumes -> u1 -> pods: the pods' directory, every pod's volumes.
        Files.createSymbolicLink(volume.resolve("up"), Path.of("../../../.."));
        assertThatThrownBy(() -> new Subpather(new LinuxMounts()).prepareSafeSubpath(subpath(0, "app", "up")))
                .hasMessage("subpath \"" + root.resolve("pods") + "\" not within volume path \"" + volume + "\"");
        assertThat(MountTable.below(root)).isEmpty();
    }

    @Test
    void aSymlinkThatStaysInTheVolumeIsMountedWithWhatItPointsAt() throws Exception {
        Files.writeString(Files.createDirectories(volume.resolve("real/conf")).resolve("app.yaml"), "port: 80");
        Files.createSymbolicLink(volume.resolve("link"), Path.of("real/conf"));

        Path mounted = new Subpather(new LinuxMounts()).prepareSafeSubpath(subpath(2, "app", "link"));

        assertThat(mounted).isEqualTo(target(2, "app"));
        assertThat(MountTable.at(mounted)).extracting(MountTable.Line::root)
                .containsExactly(volume.resolve("real/conf").toString());
        assertThat(Files.readString(mounted.resolve("app.yaml"))).isEqualTo("port: 80");
        Files.writeString(mounted.resolve("written"), "by the container");
        assertThat(volume.resolve("real/conf/written")).hasContent("by the container");
    }

    @Test
    void aFileIsMountedOnAFileOfItsOwn() throws Exception {
        Files.writeString(volume.resolve("nginx.conf"), "worker_processes 1;");
        Path mounted = new Subpather(new LinuxMounts()).prepareSafeSubpath(subpath(0, "web", "nginx.conf"));
        assertThat(mounted).isRegularFile().hasContent("worker_processes 1;");
        assertThat(MountTable.at(mounted)).hasSize(1);
    }

    @Test
    void aDirectorySwappedForASymlinkBetweenTheCheckAndTheMountIsCaughtAndUnmounted() throws Exception {
        Path sub = Files.createDirectories(volume.resolve("sub"));
        // The other container, between the kubelet's check and its mount: the checked directory becomes a symlink out.
        Subpather subpather = new Subpather(new LinuxMounts(), Swap.directoryForSymlink(sub, outside), () -> { });

        assertThatThrownBy(() -> subpather.prepareSafeSubpath(subpath(0, "app", "sub")))
                .isInstanceOf(SubpathException.class)
                .hasMessageStartingWith("error mounting " + sub + ": " + target(0, "app") + " shows \"" + outside
                        + "\" of device ")
                .hasMessageContaining("not \"" + sub + "\" of device ")
                .hasMessageEndingWith("(the subpath changed while it was mounted)");
        assertThat(MountTable.below(root)).as("the mount of the host's directory is gone").isEmpty();
        assertThat(podDir.resolve("volume-subpaths")).doesNotExist();
        assertThat(outside.resolve("shadow")).hasContent("root:secret");
    }

    @Test
    void aRestartedContainerGetsItsMountedSubpathAgainAndAChangedOneIsMountedAnew() throws Exception {
        Files.writeString(Files.createDirectories(volume.resolve("a")).resolve("f"), "a");
        Files.writeString(Files.createDirectories(volume.resolve("b")).resolve("f"), "b");
        Subpather subpather = new Subpather(new LinuxMounts());
        Path first = subpather.prepareSafeSubpath(subpath(0, "app", "a"));

        assertThat(subpather.prepareSafeSubpath(subpath(0, "app", "a"))).isEqualTo(first);
        assertThat(MountTable.at(first)).as("not mounted twice").hasSize(1);

        // The same volume mount with another subPath (a subPathExpr whose variable changed).
        assertThat(subpather.prepareSafeSubpath(subpath(0, "app", "b"))).isEqualTo(first);
        assertThat(MountTable.at(first)).extracting(MountTable.Line::root).containsExactly(volume.resolve("b").toString());
        assertThat(first.resolve("f")).hasContent("b");
    }

    @Test
    void theVolumesCleanUpUnmountsAndRemovesItsSubpathsOfEveryContainerAndLeavesOtherVolumes() throws Exception {
        Files.createDirectories(volume.resolve("a"));
        Files.writeString(volume.resolve("file"), "x");
        Subpather subpather = new Subpather(new LinuxMounts());
        subpather.prepareSafeSubpath(subpath(0, "app", "a"));
        subpather.prepareSafeSubpath(subpath(3, "sidecar", "file"));
        Path other = Files.createDirectories(podDir.resolve("volumes/kubernetes.io~empty-dir/cache/c"));
        Path otherTarget = subpather.prepareSafeSubpath(
                new Subpath(0, other, "cache", other.getParent(), podDir, "app"));

        subpather.cleanSubPaths(podDir, "data");

        assertThat(MountTable.below(podDir.resolve("volume-subpaths/data"))).isEmpty();
        assertThat(podDir.resolve("volume-subpaths/data")).doesNotExist();
        assertThat(volume.resolve("file")).as("the volume's own files stay").hasContent("x");
        assertThat(MountTable.at(otherTarget)).hasSize(1);

        subpather.cleanSubPaths(podDir, "cache");
        assertThat(MountTable.below(root)).isEmpty();
        assertThat(podDir.resolve("volume-subpaths")).doesNotExist();
        // Nothing to clean is no error.
        subpather.cleanSubPaths(podDir, "data");
    }
}
