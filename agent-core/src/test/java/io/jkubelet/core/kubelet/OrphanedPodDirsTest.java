package io.jkubelet.core.kubelet;

import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.subpath.MountTable;
import io.jkubelet.core.volume.util.subpath.Subpath;
import io.jkubelet.core.volume.util.subpath.Subpather;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An orphaned pod's directory goes once its volumes are gone, with the subPath mounts a teardown the kubelet did not
 * see left behind (unmounted first, never followed into), and stays while its volumes are there. Real mounts.
 */
class OrphanedPodDirsTest {
    @TempDir Path root;

    @AfterEach
    void unmountLeftovers() throws Exception {
        if (root != null) {
            MountTable.unmountAll(root);
        }
    }

    private PodDirs dirs;
    private final Subpather subpather = new Subpather(new LinuxMounts());
    /** The volume's data, elsewhere (a PersistentVolume's disk), and its subPath's mount for a container. */
    private Path disk;
    private Path target;

    @BeforeEach
    void subPathMountOfAVolumeWhoseOwnMountIsGone() throws Exception {
        MountTable.assumeCanMount();
        dirs = new PodDirs(root);
        disk = Files.createDirectories(root.resolve("disk/logs"));
        Files.writeString(disk.resolve("app.log"), "kept");
        target = subpather.prepareSafeSubpath(new Subpath(0, disk, "pv-1", disk.getParent(), dirs.podDir("u1"), "app"));
    }

    @Test
    void aLeftSubPathMountIsUnmountedAndThePodsDirectoryRemovedWithoutTouchingWhatItShowed() throws Exception {
        Files.createDirectories(dirs.containerDir("u1", "app"));

        new OrphanedPodDirs(dirs, uid -> false, subpather).cleanup("u1");

        assertThat(MountTable.at(target)).isEmpty();
        assertThat(dirs.podDir("u1")).doesNotExist();
        assertThat(disk.resolve("app.log")).hasContent("kept");
    }

    @Test
    void aPodWhoseVolumesAreStillThereKeepsItsSubPathMounts() throws Exception {
        new OrphanedPodDirs(dirs, uid -> true, subpather).cleanup("u1");

        assertThat(MountTable.at(target)).hasSize(1);
    }
}
