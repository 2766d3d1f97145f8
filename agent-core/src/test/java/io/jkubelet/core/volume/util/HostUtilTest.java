package io.jkubelet.core.volume.util;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Upstream's {@code MakeRShared} on the root directory, against mount tables of both kinds of host. */
class HostUtilTest {
    private static final Path ROOT_DIR = Path.of("/var/lib/kubelet");
    /** / as on this machine: private (no optional field). */
    private static final String PRIVATE_ROOT = "26 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard";
    /** / as systemd leaves it: shared. */
    private static final String SHARED_ROOT = "1 0 253:1 / / rw,relatime shared:1 - ext4 /dev/mapper/vg-root rw";

    @TempDir Path dir;

    @Test
    void aDirectoryOnASharedMountIsLeftAsItIs() throws MountException {
        FakeHostMounts mounts = new FakeHostMounts(dir.resolve("mountinfo"), SHARED_ROOT);
        HostUtil.makeRShared(mounts, ROOT_DIR);
        assertThat(mounts.commands()).isEmpty();
    }

    @Test
    void aDirectoryOnAPrivateMountIsBindMountedOnItselfThenMadeRShared() throws MountException {
        FakeHostMounts mounts = new FakeHostMounts(dir.resolve("mountinfo"), PRIVATE_ROOT,
                // A shared sibling with the same prefix does not count.
                "45 26 254:0 /var/lib/kubelet2 /var/lib/kubelet2 rw,relatime shared:2 - ext4 /dev/vda rw");
        HostUtil.makeRShared(mounts, ROOT_DIR);
        assertThat(mounts.commands()).containsExactly("bind /var/lib/kubelet /var/lib/kubelet",
                "make-rshared /var/lib/kubelet");
        // The next start finds it shared and does nothing more.
        assertThat(mounts.mountHolding(ROOT_DIR).orElseThrow().isShared()).isTrue();
        HostUtil.makeRShared(mounts, ROOT_DIR);
        assertThat(mounts.commands()).hasSize(2);
    }

    @Test
    void aFailedBindMountIsNamedAndNothingIsMadeRShared() {
        FakeHostMounts mounts = new FakeHostMounts(dir.resolve("mountinfo"), PRIVATE_ROOT);
        mounts.failOn("bind");
        assertThatThrownBy(() -> HostUtil.makeRShared(mounts, ROOT_DIR)).isInstanceOf(MountException.class)
                .hasMessageStartingWith("failed to bind-mount /var/lib/kubelet: mount failed: exit status 32");
        assertThat(mounts.commands()).containsExactly("bind /var/lib/kubelet /var/lib/kubelet");
    }

    @Test
    void aFailedMakeRSharedIsNamed() {
        FakeHostMounts mounts = new FakeHostMounts(dir.resolve("mountinfo"), PRIVATE_ROOT);
        mounts.failOn("make-rshared");
        assertThatThrownBy(() -> HostUtil.makeRShared(mounts, ROOT_DIR))
                .hasMessageStartingWith("failed to make /var/lib/kubelet rshared: mount failed: exit status 32");
    }

    @Test
    void aDirectoryNoMountHoldsIsRefusedWithUpstreamsMessage() {
        FakeHostMounts mounts = new FakeHostMounts(dir.resolve("mountinfo"));
        assertThatThrownBy(() -> HostUtil.makeRShared(mounts, ROOT_DIR))
                .hasMessage("cannot find mount point for \"/var/lib/kubelet\"");
        assertThat(mounts.commands()).isEmpty();
    }
}
