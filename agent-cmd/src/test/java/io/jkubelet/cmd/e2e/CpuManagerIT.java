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
 * pod goes, the reconcile loop gives CPU 1 back to the shared pool and the BestEffort container runs on 0-1. The
 * upstream kubelet v1.20.2 (dockershim, with Docker's default runtime the runc wrapper it needs here:
 * {@link DockerDefaultRuntime}) goes through the same story first and shows the same.
 */
class CpuManagerIT extends AgentTestBase {
    static final List<String> ARGS = List.of("--cpu-manager-policy", "static", "--reserved-cpus", "0",
            "--cpu-manager-reconcile-period", "1s");

    /** The host PID of the container's main process, as the runtime reports it. */
    String pid(String containerId) throws Exception {
        return Docker.inspect(containerId, "{{.State.Pid}}");
    }

    /** The upstream kubelet v1.20.2 of this runtime; on Docker the runc wrapper becomes the engine's default runtime. */
    Agent upstreamKubelet(Path dir) throws Exception {
        Agent upstream = Agent.upstream(dir, node(), false, ARGS);
        DockerDefaultRuntime.wrapper();
        return upstream;
    }

    /** Removes the stopped upstream kubelet's pods from the runtime and undoes {@link #upstreamKubelet}. */
    void removeUpstreamKubeletsPods(Agent upstream) throws Exception {
        Docker.removeUpstreamPods();
        DockerDefaultRuntime.runc();
    }

    /** jkubelet on this runtime. */
    Agent jkubelet(Path dir) throws Exception {
        return new Agent(dir, node(), ARGS);
    }

    /** "Docker" or "containerd", for the printed comparison. */
    String runtime() {
        return "Docker";
    }

    /** The CPUs of the container's main process, from its cpuset cgroup. */
    private String cpuset(String containerId) throws Exception {
        String pid = pid(containerId);
        String cgroup = Files.readAllLines(Path.of("/proc", pid, "cgroup")).stream()
                .filter(l -> l.split(":", 3)[1].equals("cpuset")).map(l -> l.split(":", 3)[2]).findFirst().orElseThrow();
        return Files.readString(Path.of("/sys/fs/cgroup/cpuset", cgroup, "cpuset.cpus")).strip();
    }

    private String containerOf(String pod) {
        Pod p = awaitPod(pod, Duration.ofSeconds(60), AgentTestBase::running);
        return id(container(p, "app").orElseThrow());
    }

    /**
     * What a kubelet showed: the cpusets at start, the state file (the pod's UID and the checksum, which covers it,
     * written as such), the state and the Guaranteed container after a restart, and both once the pod has gone.
     */
    record Seen(String guaranteed, String bestEffort, String state, boolean sameStateAfterRestart,
                boolean sameContainerAfterRestart, String guaranteedAfterRestart, String bestEffortAfterGone,
                String stateAfterGone) {}

    @Test
    void aGuaranteedPodGetsCpu1AndTheSharedPoolGetsItBackWhenItGoesAsOnTheUpstreamKubelet() throws Exception {
        Seen upstream;
        agent = upstreamKubelet(Files.createDirectories(dir.resolve("upstream")));
        try {
            upstream = story();
        } finally {
            agent.stop();
            try {
                removeUpstreamKubeletsPods(agent);
            } finally {
                agent.removeCgroups();
                // The upstream kubelet bind-mounts its root directory on itself to make it rshared (MakeRShared).
                RealClusterBase.unmountUnder(agent.dir);
                agent = null;
            }
        }
        agent = jkubelet(Files.createDirectories(dir.resolve("jkubelet")));
        Seen jkubelet = story();

        System.out.println("upstream kubelet v1.20.2 on " + runtime() + ": " + upstream);
        System.out.println("jkubelet on " + runtime() + ":                 " + jkubelet);
        assertThat(jkubelet.guaranteed()).isEqualTo("1");
        assertThat(jkubelet.bestEffort()).isEqualTo("0");
        assertThat(jkubelet.state()).isEqualTo("{\"policyName\":\"static\",\"defaultCpuSet\":\"0\",\"entries\":{\"<uid>\":"
                + "{\"app\":\"1\"}},\"checksum\":<checksum>}");
        assertThat(jkubelet.sameStateAfterRestart()).isTrue();
        assertThat(jkubelet.sameContainerAfterRestart()).isTrue();
        assertThat(jkubelet.guaranteedAfterRestart()).isEqualTo("1");
        assertThat(jkubelet.bestEffortAfterGone()).isEqualTo("0-1");
        assertThat(jkubelet.stateAfterGone()).isEqualTo("{\"policyName\":\"static\",\"defaultCpuSet\":\"0-1\",\"checksum\":<checksum>}");
        assertThat(jkubelet).isEqualTo(upstream);
    }

    static String node() {
        return "e2e-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The story on {@link #agent}, which it starts. */
    private Seen story() throws Exception {
        agent.start();
        agent.writeManifest("guaranteed.yaml", CgroupsIT.QOS_PODS.formatted(IMAGE, "guaranteed", "{limits: {cpu: 1, memory: 64Mi}}"));
        String guaranteed = containerOf("guaranteed");
        agent.writeManifest("besteffort.yaml", CgroupsIT.QOS_PODS.formatted(IMAGE, "besteffort", "{}"));
        String bestEffort = containerOf("besteffort");
        String guaranteedCpus = cpuset(guaranteed);
        await().atMost(Duration.ofSeconds(20)).until(() -> cpuset(bestEffort).equals("0"));
        String bestEffortCpus = cpuset(bestEffort);
        Path state = agent.dir.resolve("root/cpu_manager_state");
        String uid = awaitPod("guaranteed", Duration.ofSeconds(5), AgentTestBase::running).getMetadata().getUid();
        String before = Files.readString(state);

        // The agent restarts: the containers keep running on their CPUs, and the state file is read back.
        agent.stop();
        agent.start();
        String afterRestart = containerOf("guaranteed");
        String guaranteedAfterRestart = cpuset(afterRestart);
        boolean sameState = Files.readString(state).equals(before);

        agent.removeManifest("guaranteed.yaml");
        await().atMost(Duration.ofSeconds(60)).until(() -> agent.pod("guaranteed").isEmpty());
        await().atMost(Duration.ofSeconds(30)).until(() -> cpuset(bestEffort).equals("0-1"));
        await().atMost(Duration.ofSeconds(30)).until(() -> !Files.readString(state).contains(uid));
        return new Seen(guaranteedCpus, bestEffortCpus,
                normalized(before, uid), sameState, afterRestart.equals(guaranteed), guaranteedAfterRestart,
                cpuset(bestEffort), normalized(Files.readString(state), uid));
    }

    private static String normalized(String state, String uid) {
        return state.strip().replace(uid, "<uid>").replaceAll("\"checksum\":\\d+", "\"checksum\":<checksum>");
    }
}
