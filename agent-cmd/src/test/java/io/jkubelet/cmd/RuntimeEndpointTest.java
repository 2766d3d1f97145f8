package io.jkubelet.cmd;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** containerRuntimeEndpoint picks the adapter as a user expects. */
class RuntimeEndpointTest {

    @Test
    void dockerSocketsAndTcpEndpointsGoToTheDockerAdapter() {
        assertThat(RuntimeEndpoint.isDocker("unix:///var/run/docker.sock")).isTrue();
        assertThat(RuntimeEndpoint.isDocker("unix:///run/jk-bench/docker.sock")).isTrue();
        assertThat(RuntimeEndpoint.isDocker("/var/run/docker.sock")).isTrue();
        assertThat(RuntimeEndpoint.isDocker("tcp://127.0.0.1:2375")).isTrue();
    }

    @Test
    void everyOtherEndpointGoesToTheCriAdapter() {
        assertThat(RuntimeEndpoint.isDocker("unix:///run/containerd/containerd.sock")).isFalse();
        assertThat(RuntimeEndpoint.isDocker("unix:///var/run/crio/crio.sock")).isFalse();
        assertThat(RuntimeEndpoint.isDocker("/run/containerd/containerd.sock")).isFalse();
    }
}
