package io.jkubelet.core.volume.util;

import io.jkubelet.core.volume.util.HostMounts.MountPoint;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

/** The mount table as the kubelet reads it, from mountinfo files of real shapes (this machine's, a systemd host's). */
class LinuxMountsTest {
    private static LinuxMounts table(String fixture) {
        try {
            return new LinuxMounts(Path.of(Objects.requireNonNull(LinuxMountsTest.class.getResource(fixture)).toURI()));
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static MountPoint holding(String fixture, String path) {
        return table(fixture).mountHolding(Path.of(path)).orElseThrow();
    }

    @Test
    void aRootDirectoryBelowASharedMountIsOnThatMountAndShared() {
        // systemd makes / shared at boot: the upstream kubelet finds nothing to do there.
        MountPoint m = holding("mountinfo-systemd", "/var/lib/kubelet");
        assertThat(m.path()).isEqualTo(Path.of("/"));
        assertThat(m.optionalFields()).containsExactly("shared:1");
        assertThat(m.isShared()).isTrue();
    }

    @Test
    void aRootDirectoryBelowAPrivateMountIsOnThatMountAndNotShared() {
        // This machine: / is private, /var/lib/docker shared; a tmpfs below the root directory does not hold it.
        MountPoint m = holding("mountinfo-private-root", "/var/lib/kubelet");
        assertThat(m.path()).isEqualTo(Path.of("/"));
        assertThat(m.fsType()).isEqualTo("ext4");
        assertThat(m.source()).isEqualTo("/dev/vda");
        assertThat(m.optionalFields()).isEmpty();
        assertThat(m.isShared()).isFalse();
    }

    @Test
    void siblingsThatShareThePathsLettersDoNotHoldIt() {
        // /var/lib/kubelet2 and /var/lib/kube are shared and listed after /, but /var/lib/kubelet is below neither:
        // paths are compared segment by segment, not letter by letter.
        MountPoint m = holding("mountinfo-siblings", "/var/lib/kubelet");
        assertThat(m.path()).isEqualTo(Path.of("/"));
        assertThat(m.isShared()).isFalse();
        assertThat(holding("mountinfo-siblings", "/var/lib/kubelet2/pods").path()).isEqualTo(Path.of("/var/lib/kubelet2"));
        assertThat(holding("mountinfo-siblings", "/var/lib/kube").path()).isEqualTo(Path.of("/var/lib/kube"));
    }

    @Test
    void aMountPointThatIsExactlyThePathHoldsIt() {
        MountPoint m = holding("mountinfo-kubelet-mount", "/var/lib/kubelet");
        assertThat(m.path()).isEqualTo(Path.of("/var/lib/kubelet"));
        assertThat(m.fsType()).isEqualTo("xfs");
        assertThat(m.source()).isEqualTo("/dev/mapper/vg-kubelet");
        assertThat(m.optionalFields()).containsExactly("shared:30", "master:9");
        assertThat(m.isShared()).isTrue();
        // A path written with a trailing slash or dots is the same path.
        assertThat(holding("mountinfo-kubelet-mount", "/var/lib/kubelet/./").path()).isEqualTo(Path.of("/var/lib/kubelet"));
    }

    @Test
    void aSlaveMountIsNotShared() {
        // master:N alone: mounts of the peer group reach it, its own go nowhere.
        MountPoint m = holding("mountinfo-kubelet-mount", "/var/lib/kubelet/pods/uid");
        assertThat(m.path()).isEqualTo(Path.of("/var/lib/kubelet/pods"));
        assertThat(m.optionalFields()).containsExactly("master:9");
        assertThat(m.isShared()).isFalse();
    }

    @Test
    void theMountListedLastHidesTheOnesBelowIt() {
        // A tmpfs mounted on /var/lib after /var/lib/kubelet's own mount covers it: the path is on the tmpfs now.
        MountPoint m = holding("mountinfo-overmounted", "/var/lib/kubelet");
        assertThat(m.path()).isEqualTo(Path.of("/var/lib"));
        assertThat(m.isShared()).isFalse();
    }

    @Test
    void anEscapedMountPointIsReadAsThePathItIs() {
        MountPoint m = holding("mountinfo-kubelet-mount", "/srv/my data/kubelet");
        assertThat(m.path()).isEqualTo(Path.of("/srv/my data"));
        assertThat(m.isShared()).isTrue();
    }

    @Test
    void noMountHoldsAPathWhenTheTableCannotBeRead() {
        assertThat(new LinuxMounts(Path.of("/no/such/mountinfo")).mountHolding(Path.of("/var/lib/kubelet"))).isEmpty();
    }
}
