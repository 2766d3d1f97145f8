package io.jkubelet.docker;

import io.jkubelet.core.runtime.PodSandboxConfig;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/** The pod's sysctls on the real engine: set on the sandbox, seen by its containers, which share its namespaces. */
class DockerSysctlTest extends DockerPodsTestBase {

    @Test
    void thePodsSafeSysctlsAreSetInItsNetworkAndIpcNamespaces() {
        PodSandboxConfig sandbox = pods.sandbox("tuned", c -> new PodSandboxConfig(c.metadata(), c.hostname(),
                c.logDirectory(), c.dnsConfig(), c.portMappings(), c.labels(), c.annotations(), c.cgroupParent(),
                c.namespaceOptions(), c.oomScoreAdj(), c.image(), c.privileged(),
                Map.of("net.ipv4.ip_unprivileged_port_start", "80", "kernel.shm_rmid_forced", "1",
                        "net.ipv4.ip_local_port_range", "20000 30000"), c.seccomp()));
        String sandboxId = runtime.runPodSandbox(sandbox);
        String app = pods.run(sandboxId, pods.container("app", PodFixture.LONG_RUNNING, sandbox,
                UnaryOperator.identity()), sandbox);

        assertThat(read(app, "/proc/sys/net/ipv4/ip_unprivileged_port_start")).isEqualTo("80");
        assertThat(read(app, "/proc/sys/kernel/shm_rmid_forced")).isEqualTo("1");
        assertThat(read(app, "/proc/sys/net/ipv4/ip_local_port_range")).isEqualTo("20000\t30000");
        assertThat(docker.inspectContainerCmd(sandboxId).exec().getHostConfig().getSysctls())
                .containsEntry("net.ipv4.ip_unprivileged_port_start", "80");
    }

    private static String read(String containerId, String file) {
        var result = runtime.execSync(containerId, List.of("cat", file), Duration.ofSeconds(10));
        assertThat(result.exitCode()).as("cat %s", file).isZero();
        return new String(result.stdout(), StandardCharsets.UTF_8).strip();
    }
}
