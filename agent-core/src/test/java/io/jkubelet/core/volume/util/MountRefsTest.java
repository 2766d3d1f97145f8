package io.jkubelet.core.volume.util;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * mount-utils' {@code SearchMountPoints} on a mount table: the refs of a directory are the other mounts of that
 * directory of the same file system (its bind mounts), found from the mount that holds it.
 */
class MountRefsTest {
    private static final List<HostMounts.MountPoint> TABLE = List.of(
            info("21 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw"),
            info("30 21 0:40 / /tmp rw shared:5 - tmpfs tmpfs rw"),
            // Two pods' bind mounts of /disks/vol1 (on the root file system) and one of another directory.
            info("41 21 8:1 /disks/vol1 /var/lib/kubelet/pods/a/volumes/kubernetes.io~local-volume/pv rw - ext4 /dev/sda1 rw"),
            info("42 21 8:1 /disks/vol1 /var/lib/kubelet/pods/b/volumes/kubernetes.io~local-volume/pv rw - ext4 /dev/sda1 rw"),
            info("43 21 8:1 /disks/vol2 /var/lib/kubelet/pods/c/volumes/kubernetes.io~local-volume/pv2 rw - ext4 /dev/sda1 rw"),
            // A block device mounted for the node, and a pod's bind mount of it.
            info("50 21 7:0 / /var/lib/kubelet/plugins/kubernetes.io/local-volume/mounts/blk rw - ext4 /dev/loop0 rw"),
            info("51 21 7:0 / /var/lib/kubelet/pods/d/volumes/kubernetes.io~local-volume/blk rw - ext4 /dev/loop0 rw"));

    private static HostMounts.MountPoint info(String line) {
        return LinuxMounts.parse(line).orElseThrow();
    }

    @Test
    void theBindMountsOfADirectoryAreItsRefs() throws Exception {
        assertThat(LinuxMounts.searchMountPoints(Path.of("/disks/vol1"), TABLE)).containsExactly(
                Path.of("/var/lib/kubelet/pods/a/volumes/kubernetes.io~local-volume/pv"),
                Path.of("/var/lib/kubelet/pods/b/volumes/kubernetes.io~local-volume/pv"));
        assertThat(LinuxMounts.searchMountPoints(Path.of("/disks/vol3"), TABLE)).isEmpty();
    }

    @Test
    void theRefsOfAMountPointAreTheOtherMountsOfItsFileSystem() throws Exception {
        assertThat(LinuxMounts.searchMountPoints(Path.of("/var/lib/kubelet/plugins/kubernetes.io/local-volume/mounts/blk"),
                TABLE)).containsExactly(Path.of("/var/lib/kubelet/pods/d/volumes/kubernetes.io~local-volume/blk"));
    }

    @Test
    void aPathNoMountHoldsCannotBeTold() {
        assertThatThrownBy(() -> LinuxMounts.searchMountPoints(Path.of("/x"), TABLE.subList(1, 2)))
                .hasMessage("failed to get root path and major:minor for /x");
    }
}
