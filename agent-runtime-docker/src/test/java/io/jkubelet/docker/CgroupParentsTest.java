package io.jkubelet.docker;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The pod cgroup as Docker takes it (dockershim's GenerateExpectedCgroupParent), and where Docker then puts a container's cgroup. */
class CgroupParentsTest {
    private static final String POD_SLICE = "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1_2.slice";

    @Test
    void cgroupfsTakesThePathAsItIs() {
        assertThat(CgroupParents.forDocker("/kubepods/burstable/pod1-2", "cgroupfs")).isEqualTo("/kubepods/burstable/pod1-2");
        assertThat(CgroupParents.forDocker("", "systemd")).isEmpty();
        assertThat(CgroupParents.forDocker(null, "cgroupfs")).isEmpty();
    }

    @Test
    void systemdTakesOnlyTheSlice() {
        assertThat(CgroupParents.forDocker(POD_SLICE, "systemd")).isEqualTo("kubepods-burstable-pod1_2.slice");
    }

    @Test
    void cgroupfsDriverNestsContainersUnderTheParent() {
        assertThat(CgroupParents.containerCgroup("cgroupfs", "", "abc")).isEqualTo("/docker/abc");
        assertThat(CgroupParents.containerCgroup("cgroupfs", null, "abc")).isEqualTo("/docker/abc");
        assertThat(CgroupParents.containerCgroup("cgroupfs", "/kubepods/pod1/", "abc")).isEqualTo("/kubepods/pod1/abc");
        assertThat(CgroupParents.containerCgroup("cgroupfs", "kubepods", "abc")).isEqualTo("/kubepods/abc");
    }

    @Test
    void systemdDriverMakesAScopeInTheExpandedSlice() {
        assertThat(CgroupParents.containerCgroup("systemd", "", "abc")).isEqualTo("/system.slice/docker-abc.scope");
        assertThat(CgroupParents.containerCgroup("systemd", "kubepods.slice", "abc")).isEqualTo("/kubepods.slice/docker-abc.scope");
        assertThat(CgroupParents.containerCgroup("systemd", "kubepods-burstable-pod1_2.slice", "abc"))
                .isEqualTo(POD_SLICE + "/docker-abc.scope");
    }
}
