package io.jkubelet.core.kubelet;

import io.jkubelet.core.events.Event;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.volume.util.FakeHostMounts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The kubelet's start makes its root directory a shared mount before anything is put in it (upstream's
 * {@code setupDataDirs}), so that a CSI node plugin's {@code Bidirectional} mount of it works on a host whose {@code /}
 * is private; the mount commands go to a fake, the mount table is a file.
 */
class KubeletDataDirsTest {
    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final LoggingEventRecorder events = new LoggingEventRecorder(clock);
    private final List<Kubelet> kubelets = new ArrayList<>();

    private Kubelet start(FakeHostMounts mounts) {
        Kubelet kubelet = new Kubelet(TestSettings.under(root), KubeletDeps.builder(runtime, runtime, events, clock)
                .hostMounts(mounts).build());
        kubelets.add(kubelet);
        kubelet.start();
        return kubelet;
    }

    @AfterEach
    void stop() {
        kubelets.forEach(Kubelet::close);
    }

    private Path rootDir() {
        return TestSettings.under(root).rootDir();
    }

    @Test
    void aRootDirectoryOnAPrivateMountIsBindMountedOnItselfAndMadeRSharedOnceForAllStarts() {
        FakeHostMounts mounts = new FakeHostMounts(root.resolve("mountinfo"),
                "26 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard");
        start(mounts).close();
        assertThat(mounts.commands()).containsExactly("bind " + rootDir() + " " + rootDir(),
                "make-rshared " + rootDir());
        assertThat(rootDir().resolve("pods")).isDirectory();

        // A restarted kubelet finds its root directory shared: the mount it made stays, nothing is mounted again.
        start(mounts);
        assertThat(mounts.commands()).hasSize(2);
    }

    @Test
    void aRootDirectoryOnASharedMountIsLeftAsItIs() {
        FakeHostMounts mounts = new FakeHostMounts(root.resolve("mountinfo"),
                "1 0 253:1 / / rw,relatime shared:1 - ext4 /dev/mapper/vg-root rw");
        start(mounts);
        assertThat(mounts.commands()).isEmpty();
        assertThat(rootDir().resolve("pods")).isDirectory();
    }

    @Test
    void aMountThatFailsStopsTheStartWithUpstreamsMessageAndEventBeforeThePodsDirectoryIsMade() {
        FakeHostMounts mounts = new FakeHostMounts(root.resolve("mountinfo"),
                "26 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard");
        mounts.failOn("bind");
        assertThatThrownBy(() -> start(mounts)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Failed to initialize internal modules: error configuring root directory: "
                        + "failed to bind-mount " + rootDir() + ": mount failed: exit status 32");
        assertThat(events.events()).filteredOn(e -> e.reason().equals("KubeletSetupFailed")).singleElement()
                .satisfies(e -> {
                    assertThat(e.type()).isEqualTo("Warning");
                    assertThat(e.involvedObject().getKind()).isEqualTo("Node");
                    assertThat(e.involvedObject().getName()).isEqualTo("node-a");
                    assertThat(e.message()).startsWith("error configuring root directory: failed to bind-mount ");
                });
        assertThat(rootDir().resolve("pods")).doesNotExist();
        assertThat(events.events()).extracting(Event::reason).containsExactly("KubeletSetupFailed");
    }
}
