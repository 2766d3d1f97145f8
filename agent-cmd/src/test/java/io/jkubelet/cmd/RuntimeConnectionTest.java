package io.jkubelet.cmd;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** containerRuntimeEndpoint picks the adapter as a user expects. */
class RuntimeConnectionTest {

    @Test
    void dockerSocketsAndTcpEndpointsGoToTheDockerAdapter() {
        assertThat(RuntimeConnection.isDocker("unix:///var/run/docker.sock")).isTrue();
        assertThat(RuntimeConnection.isDocker("unix:///run/jk-bench/docker.sock")).isTrue();
        assertThat(RuntimeConnection.isDocker("/var/run/docker.sock")).isTrue();
        assertThat(RuntimeConnection.isDocker("tcp://127.0.0.1:2375")).isTrue();
    }

    @Test
    void everyOtherEndpointGoesToTheCriAdapter() {
        assertThat(RuntimeConnection.isDocker("unix:///run/containerd/containerd.sock")).isFalse();
        assertThat(RuntimeConnection.isDocker("unix:///var/run/crio/crio.sock")).isFalse();
        assertThat(RuntimeConnection.isDocker("/run/containerd/containerd.sock")).isFalse();
    }
}
