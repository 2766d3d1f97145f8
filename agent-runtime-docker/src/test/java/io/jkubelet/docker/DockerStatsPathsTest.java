package io.jkubelet.docker;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Where Docker puts a container's cgroup, per cgroup driver. */
class DockerStatsPathsTest {
    @Test
    void cgroupfsDriverNestsContainersUnderTheParent() {
        assertThat(DockerStats.cgroupPath("cgroupfs", "", "abc")).isEqualTo("/docker/abc");
        assertThat(DockerStats.cgroupPath("cgroupfs", null, "abc")).isEqualTo("/docker/abc");
        assertThat(DockerStats.cgroupPath("cgroupfs", "/kubepods/pod1/", "abc")).isEqualTo("/kubepods/pod1/abc");
        assertThat(DockerStats.cgroupPath("cgroupfs", "kubepods", "abc")).isEqualTo("/kubepods/abc");
    }

    @Test
    void systemdDriverMakesAScope() {
        assertThat(DockerStats.cgroupPath("systemd", "", "abc")).isEqualTo("/system.slice/docker-abc.scope");
        assertThat(DockerStats.cgroupPath("systemd", "kubepods.slice", "abc")).isEqualTo("/kubepods.slice/docker-abc.scope");
    }
}
