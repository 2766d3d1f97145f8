package io.jkubelet.core.cm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** cgroup v1 on a stand-in file system: one directory per hierarchy, limits in the cpu, memory and pids ones. */
class CgroupV1ManagerTest {
    private static final CgroupName POD = CgroupName.ROOT.child("kubepods", "burstable", "pod1");

    @TempDir
    Path dir;

    @Test
    void createMakesTheCgroupInEveryHierarchyAndWritesItsLimits() throws Exception {
        FakeCgroupfs fs = new FakeCgroupfs(dir);

        fs.manager(CgroupDriver.CGROUPFS).create(POD, new ResourceConfig(512L, 50_000L, 100_000L, 64L << 20, 20L));

        for (String s : FakeCgroupfs.SUBSYSTEMS) {
            assertThat(fs.exists(s, "/kubepods/burstable/pod1")).as(s).isTrue();
        }
        assertThat(fs.read("cpu", "/kubepods/burstable/pod1", "cpu.shares")).isEqualTo("512");
        assertThat(fs.read("cpu", "/kubepods/burstable/pod1", "cpu.cfs_quota_us")).isEqualTo("50000");
        assertThat(fs.read("cpu", "/kubepods/burstable/pod1", "cpu.cfs_period_us")).isEqualTo("100000");
        assertThat(fs.read("memory", "/kubepods/burstable/pod1", "memory.limit_in_bytes")).isEqualTo("67108864");
        assertThat(fs.read("pids", "/kubepods/burstable/pod1", "pids.max")).isEqualTo("20");
    }

    @Test
    void everyNewCpusetLevelTakesItsParentsCpusAndMemoryNodes() throws Exception {
        FakeCgroupfs fs = new FakeCgroupfs(dir);

        fs.manager(CgroupDriver.CGROUPFS).create(POD, ResourceConfig.NONE);

        for (String level : List.of("/kubepods", "/kubepods/burstable", "/kubepods/burstable/pod1")) {
            assertThat(fs.read("cpuset", level, "cpuset.cpus")).as(level).isEqualTo("0-3");
            assertThat(fs.read("cpuset", level, "cpuset.mems")).as(level).isEqualTo("0");
        }
    }

    @Test
    void unsetValuesAreLeftAloneAndUnlimitedIsWrittenAsTheKernelTakesIt() throws Exception {
        FakeCgroupfs fs = new FakeCgroupfs(dir);
        CgroupManager m = fs.manager(CgroupDriver.CGROUPFS);

        m.create(POD, ResourceConfig.cpuShares(2));
        m.update(POD, new ResourceConfig(null, -1L, 100_000L, -1L, -1L));

        assertThat(fs.read("cpu", "/kubepods/burstable/pod1", "cpu.shares")).isEqualTo("2");
        assertThat(fs.read("cpu", "/kubepods/burstable/pod1", "cpu.cfs_quota_us")).isEqualTo("-1");
        assertThat(fs.read("memory", "/kubepods/burstable/pod1", "memory.limit_in_bytes")).isEqualTo("-1");
        assertThat(fs.read("pids", "/kubepods/burstable/pod1", "pids.max")).isEqualTo("max");
    }

    @Test
    void theSystemdDriverWritesTheSlices() throws Exception {
        FakeCgroupfs fs = new FakeCgroupfs(dir);
        CgroupManager m = fs.manager(CgroupDriver.SYSTEMD);

        m.create(POD, ResourceConfig.cpuShares(2));

        assertThat(m.path(POD)).isEqualTo("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice");
        assertThat(fs.read("cpu", m.path(POD), "cpu.shares")).isEqualTo("2");
        assertThat(m.exists(POD)).isTrue();
    }

    @Test
    void validateNamesTheMissingPathsAsUpstreamDoes() {
        FakeCgroupfs fs = new FakeCgroupfs(dir);
        fs.mkdir("/jk");

        assertThat(fs.manager(CgroupDriver.CGROUPFS).exists(CgroupName.parseCgroupfs("/jk"))).isTrue();
        assertThatThrownBy(() -> fs.manager(CgroupDriver.CGROUPFS).validate(CgroupName.parseCgroupfs("/nope")))
                .isInstanceOf(CgroupException.class)
                .hasMessageStartingWith("cgroup [\"nope\"] has some missing paths: " + dir.resolve("cpu/nope") + ", ")
                .hasMessageNotContaining("devices");
    }

    @Test
    void destroyRemovesTheCgroupAndWhatIsBelowItEverywhereAndIsIdempotent() throws Exception {
        FakeCgroupfs fs = new FakeCgroupfs(dir);
        CgroupManager m = fs.manager(CgroupDriver.CGROUPFS);
        m.create(POD.child("c1"), ResourceConfig.cpuShares(2));

        m.destroy(POD);
        m.destroy(POD);

        for (String s : FakeCgroupfs.SUBSYSTEMS) {
            assertThat(fs.exists(s, "/kubepods/burstable/pod1")).as(s).isFalse();
            assertThat(fs.exists(s, "/kubepods/burstable")).as(s).isTrue();
        }
    }

    @Test
    void pidsAreGatheredFromTheCgroupAndItsChildrenInEveryHierarchy() throws Exception {
        FakeCgroupfs fs = new FakeCgroupfs(dir);
        CgroupManager m = fs.manager(CgroupDriver.CGROUPFS);
        m.create(POD, ResourceConfig.NONE);
        fs.addProcess("memory", "/kubepods/burstable/pod1", 11);
        fs.addProcess("cpu", "/kubepods/burstable/pod1/c1", 12);
        fs.addProcess("cpu", "/kubepods/burstable/pod1/c1", 11);

        assertThat(m.pids(POD)).containsExactly(11L, 12L);
        assertThat(m.children(CgroupName.ROOT.child("kubepods", "burstable"))).containsExactly("pod1");
        assertThat(m.children(CgroupName.ROOT.child("nothing"))).isEmpty();
    }

    @Test
    void mountsAreReadFromMountinfoWithCoMountedAndNamedHierarchies() throws Exception {
        String mountinfo = """
                31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
                32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:7 - cgroup cgroup rw,cpu,cpuacct
                34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset,clone_children
                35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
                36 31 0:32 / /var/lib/container/cgroup/memory rw,relatime - cgroup cgroup rw,memory
                40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd
                41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
                """;
        String self = "5:memory:/\n4:cpuset:/\n2:cpu,cpuacct:/\n1:name=systemd:/init.scope\n0::/init.scope\n";

        CgroupV1Manager m = CgroupMounts.v1(CgroupDriver.CGROUPFS, mountinfo, self);

        assertThat(m.hierarchies()).containsExactlyInAnyOrder(Path.of("/sys/fs/cgroup/cpu,cpuacct"),
                Path.of("/sys/fs/cgroup/cpuset"), Path.of("/sys/fs/cgroup/memory"), Path.of("/sys/fs/cgroup/systemd"),
                Path.of("/sys/fs/cgroup/unified"));
        assertThatThrownBy(() -> m.validate(CgroupName.ROOT.child("x")))
                .hasMessageContaining("/sys/fs/cgroup/cpu,cpuacct/x").hasMessageContaining("/sys/fs/cgroup/systemd/x")
                .hasMessageNotContaining("unified");
        assertThatThrownBy(() -> CgroupMounts.v1(CgroupDriver.CGROUPFS, "", self)).hasMessage("failed to find cgroup mounts");
    }
}
