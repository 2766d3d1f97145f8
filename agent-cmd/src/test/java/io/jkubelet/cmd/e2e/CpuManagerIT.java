package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The CPU manager's {@code static} policy on this 2-CPU machine, as the issue shows it: with {@code reservedSystemCPUs}
 * "0" a Guaranteed pod asking for one CPU runs on CPU 1 alone and a BestEffort pod on CPU 0 (read from each container's
 * cpuset cgroup, as an operator would); the state file is upstream's and survives an agent restart; when the Guaranteed
 * pod goes, the reconcile loop gives CPU 1 back to the shared pool and the BestEffort container runs on 0-1.
 */
class CpuManagerIT extends AgentTestBase {
    /** The CPUs of the container's main process, from its cpuset cgroup. */
    private static String cpuset(String containerId) throws Exception {
        String pid = Docker.inspect(containerId, "{{.State.Pid}}");
        String cgroup = Files.readAllLines(Path.of("/proc", pid, "cgroup")).stream()
                .filter(l -> l.split(":", 3)[1].equals("cpuset")).map(l -> l.split(":", 3)[2]).findFirst().orElseThrow();
        return Files.readString(Path.of("/sys/fs/cgroup/cpuset", cgroup, "cpuset.cpus")).strip();
    }

    private String containerOf(String pod) {
        Pod p = awaitPod(pod, Duration.ofSeconds(60), AgentTestBase::running);
        return id(container(p, "app").orElseThrow());
    }

    @Test
    void aGuaranteedPodGetsCpu1AndTheSharedPoolGetsItBackWhenItGoes() throws Exception {
        String node = "e2e-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> args = List.of("--cpu-manager-policy", "static", "--reserved-cpus", "0",
                "--cpu-manager-reconcile-period", "1s");
        agent = new Agent(dir, node, args).start();
        agent.writeManifest("guaranteed.yaml", CgroupsIT.QOS_PODS.formatted(IMAGE, "guaranteed", "{limits: {cpu: 1, memory: 64Mi}}"));
        String guaranteed = containerOf("guaranteed");
        agent.writeManifest("besteffort.yaml", CgroupsIT.QOS_PODS.formatted(IMAGE, "besteffort", "{}"));
        String bestEffort = containerOf("besteffort");

        assertThat(cpuset(guaranteed)).isEqualTo("1");
        await().atMost(Duration.ofSeconds(20)).until(() -> cpuset(bestEffort).equals("0"));
        Path state = agent.dir.resolve("root/cpu_manager_state");
        String uid = awaitPod("guaranteed", Duration.ofSeconds(5), AgentTestBase::running).getMetadata().getUid();
        assertThat(Files.readString(state)).startsWith("{\"policyName\":\"static\",\"defaultCpuSet\":\"0\",\"entries\":{\""
                + uid + "\":{\"app\":\"1\"}},\"checksum\":");

        // The agent restarts: the containers keep running on their CPUs, and the state file is read back.
        String before = Files.readString(state);
        agent.stop();
        agent.start();
        assertThat(containerOf("guaranteed")).isEqualTo(guaranteed);
        assertThat(cpuset(guaranteed)).isEqualTo("1");
        assertThat(Files.readString(state)).isEqualTo(before);

        agent.removeManifest("guaranteed.yaml");
        await().atMost(Duration.ofSeconds(60)).until(() -> agent.pod("guaranteed").isEmpty());
        await().atMost(Duration.ofSeconds(30)).until(() -> cpuset(bestEffort).equals("0-1"));
        assertThat(Files.readString(state)).startsWith("{\"policyName\":\"static\",\"defaultCpuSet\":\"0-1\",\"checksum\":");
    }
}
