package io.jkubelet.core.cm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * cgroup v2 on a stand-in unified hierarchy (this machine mounts v1): creating a cgroup enables the controllers in
 * every parent, limits go to cpu.weight, cpu.max, memory.max and pids.max.
 */
class CgroupV2ManagerTest {
    private static final CgroupName POD = CgroupName.ROOT.child("kubepods", "besteffort", "pod1");

    @TempDir
    Path root;

    private CgroupV2Manager manager(CgroupDriver driver) throws Exception {
        Files.writeString(root.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
        return new CgroupV2Manager(driver, root);
    }

    private String read(String path, String file) throws Exception {
        return Files.readString(root.resolve(path.substring(1)).resolve(file)).strip();
    }

    @Test
    void createEnablesTheControllersInEveryParentAndWritesTheLimits() throws Exception {
        CgroupV2Manager m = manager(CgroupDriver.CGROUPFS);

        m.create(POD, new ResourceConfig(512L, 50_000L, 100_000L, 64L << 20, 20L));

        String enable = "+cpuset +cpu +io +memory +pids";
        assertThat(Files.readString(root.resolve("cgroup.subtree_control"))).isEqualTo(enable);
        assertThat(read("/kubepods", "cgroup.subtree_control")).isEqualTo(enable);
        assertThat(read("/kubepods/besteffort", "cgroup.subtree_control")).isEqualTo(enable);
        assertThat(root.resolve("kubepods/besteffort/pod1/cgroup.subtree_control")).doesNotExist();
        assertThat(read("/kubepods/besteffort/pod1", "cpu.weight")).isEqualTo("20");
        assertThat(read("/kubepods/besteffort/pod1", "cpu.max")).isEqualTo("50000 100000");
        assertThat(read("/kubepods/besteffort/pod1", "memory.max")).isEqualTo("67108864");
        assertThat(read("/kubepods/besteffort/pod1", "pids.max")).isEqualTo("20");
    }

    @Test
    void unlimitedIsMax() throws Exception {
        CgroupV2Manager m = manager(CgroupDriver.SYSTEMD);

        m.create(POD, new ResourceConfig(2L, -1L, 100_000L, -1L, -1L));

        String pod = "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1.slice";
        assertThat(read(pod, "cpu.weight")).isEqualTo("1");
        assertThat(read(pod, "cpu.max")).isEqualTo("max 100000");
        assertThat(read(pod, "memory.max")).isEqualTo("max");
        assertThat(read(pod, "pids.max")).isEqualTo("max");
    }

    @Test
    void sharesBecomeWeightsAsUpstreamConvertsThem() {
        assertThat(CgroupV2Manager.cpuWeight(2)).isEqualTo(1);
        assertThat(CgroupV2Manager.cpuWeight(1024)).isEqualTo(39);
        assertThat(CgroupV2Manager.cpuWeight(262_144)).isEqualTo(10_000);
    }

    @Test
    void validateWantsTheKubeletsControllersThatTheKernelHas() throws Exception {
        CgroupV2Manager m = manager(CgroupDriver.CGROUPFS);
        m.create(POD, ResourceConfig.NONE);

        assertThatThrownBy(() -> m.validate(POD)).hasMessageStartingWith("could not read controllers for cgroup");
        // The kernel lists in a child what its parent enables; this stand-in file system does not.
        Files.writeString(root.resolve("kubepods/besteffort/pod1/cgroup.controllers"), "cpu memory\n");
        assertThatThrownBy(() -> m.validate(POD))
                .hasMessage("cgroup [\"kubepods\" \"besteffort\" \"pod1\"] has some missing controllers: cpuset, pids");
        Files.writeString(root.resolve("kubepods/besteffort/pod1/cgroup.controllers"), "cpuset cpu io memory pids\n");
        assertThat(m.exists(POD)).isTrue();
    }

    @Test
    void destroyRemovesTheTree() throws Exception {
        CgroupV2Manager m = manager(CgroupDriver.CGROUPFS);
        m.create(POD.child("c1"), ResourceConfig.NONE);

        m.destroy(POD);

        assertThat(root.resolve("kubepods/besteffort/pod1")).doesNotExist();
        assertThat(root.resolve("kubepods/besteffort")).isDirectory();
    }
}
