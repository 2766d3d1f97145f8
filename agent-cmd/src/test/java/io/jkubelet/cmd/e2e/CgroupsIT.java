package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The container manager on this machine's cgroup v1 hierarchies with Docker's cgroupfs driver: what the agent writes
 * is read back from {@code /sys/fs/cgroup}, as an operator would check it. Each agent has its own cgroup root
 * ({@code /jk-e2e-<node>}), removed after the test.
 */
class CgroupsIT extends AgentTestBase {
    private static final long MI = 1024 * 1024;

    /** A pod of one container that stops on SIGTERM, with the resources given. */
    static final String QOS_PODS = """
            apiVersion: v1
            kind: Pod
            metadata: {name: %2$s}
            spec:
              terminationGracePeriodSeconds: 1
              containers:
              - name: app
                image: %1$s
                command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]
                resources: %3$s
            """;

    private void writePod(String name, String resources) throws Exception {
        agent.writeManifest(name + ".yaml", QOS_PODS.formatted(IMAGE, name, resources));
    }

    private String podCgroup(String name, String qosDir) {
        Pod pod = awaitPod(name, Duration.ofSeconds(60), AgentTestBase::running);
        return agent.cgroupRoot + "/kubepods" + qosDir + "/pod" + pod.getMetadata().getUid();
    }

    private static long memTotal() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
            if (line.startsWith("MemTotal:")) {
                return Long.parseLong(line.replaceAll("\\D+", "")) * 1024;
            }
        }
        throw new IllegalStateException("no MemTotal");
    }

    /** A kernel limit; read to the end, since /proc files do not say their size. */
    private static long procSys(String name) throws Exception {
        try (var in = Files.newInputStream(Path.of("/proc/sys/kernel", name))) {
            return Long.parseLong(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip());
        }
    }

    /** The cgroup (in one hierarchy) of a container's main process, as the kernel shows it. */
    private static String processCgroup(String containerId, String hierarchy) throws Exception {
        String pid = Docker.inspect(containerId, "{{.State.Pid}}");
        return Files.readAllLines(Path.of("/proc", pid, "cgroup")).stream()
                .filter(l -> l.split(":", 3)[1].equals(hierarchy)).map(l -> l.split(":", 3)[2]).findFirst().orElseThrow();
    }

    @Test
    void guaranteedBurstableAndBestEffortPodsRunInTheirCgroupsWithTheirLimits() throws Exception {
        String node = "e2e-" + UUID.randomUUID().toString().substring(0, 8);
        // The kube-reserved cgroup is the operator's, made before the agent starts; inside the agent's root here.
        String kubeReserved = "/jk-e2e-" + node + "/kube-reserved";
        HostCgroups.create(kubeReserved.substring(1));
        agent = new Agent(dir, node, List.of("--kube-reserved", "cpu=500m,memory=256Mi,pid=1000",
                "--system-reserved", "memory=256Mi", "--enforce-node-allocatable", "pods,kube-reserved",
                "--kube-reserved-cgroup", kubeReserved)).start();

        writePod("guaranteed", "{limits: {cpu: 500m, memory: 64Mi}}");
        writePod("burstable", "{requests: {cpu: 250m, memory: 32Mi}, limits: {memory: 128Mi}}");
        writePod("besteffort", "{}");
        String guaranteed = podCgroup("guaranteed", "");
        String burstable = podCgroup("burstable", "/burstable");
        String bestEffort = podCgroup("besteffort", "/besteffort");
        String kubepods = agent.cgroupRoot + "/kubepods";

        // Node allocatable: capacity less kube and system reservations (not eviction thresholds).
        long cpus = Runtime.getRuntime().availableProcessors();
        assertThat(HostCgroups.read("cpu", kubepods, "cpu.shares")).isEqualTo(Long.toString((cpus * 1000 - 500) * 1024 / 1000));
        long allocatableMemory = memTotal() - 512 * MI;
        assertThat(Long.parseLong(HostCgroups.read("memory", kubepods, "memory.limit_in_bytes")))
                .isBetween(allocatableMemory - 4095, allocatableMemory); // the kernel rounds down to pages
        long maxPids = Math.min(procSys("pid_max"), procSys("threads-max"));
        assertThat(HostCgroups.read("pids", kubepods, "pids.max")).isEqualTo(Long.toString(maxPids - 1000));
        assertThat(HostCgroups.read("cpu", kubeReserved, "cpu.shares")).isEqualTo("512");
        assertThat(HostCgroups.read("memory", kubeReserved, "memory.limit_in_bytes")).isEqualTo(Long.toString(256 * MI));
        assertThat(HostCgroups.read("pids", kubeReserved, "pids.max")).isEqualTo("1000");

        // QoS cgroups: BestEffort the fewest shares, Burstable its pods' requests.
        assertThat(HostCgroups.read("cpu", kubepods + "/besteffort", "cpu.shares")).isEqualTo("2");
        assertThat(HostCgroups.read("cpu", kubepods + "/burstable", "cpu.shares")).isEqualTo("256");

        // Pod cgroups, as ResourceConfigForPod computes them.
        assertThat(HostCgroups.read("cpu", guaranteed, "cpu.shares")).isEqualTo("512");
        assertThat(HostCgroups.read("cpu", guaranteed, "cpu.cfs_quota_us")).isEqualTo("50000");
        assertThat(HostCgroups.read("cpu", guaranteed, "cpu.cfs_period_us")).isEqualTo("100000");
        assertThat(HostCgroups.read("memory", guaranteed, "memory.limit_in_bytes")).isEqualTo(Long.toString(64 * MI));
        assertThat(HostCgroups.read("cpu", burstable, "cpu.shares")).isEqualTo("256");
        assertThat(HostCgroups.read("cpu", burstable, "cpu.cfs_quota_us")).isEqualTo("-1");
        assertThat(HostCgroups.read("memory", burstable, "memory.limit_in_bytes")).isEqualTo(Long.toString(128 * MI));
        assertThat(HostCgroups.read("cpu", bestEffort, "cpu.shares")).isEqualTo("2");
        assertThat(Long.parseLong(HostCgroups.read("memory", bestEffort, "memory.limit_in_bytes"))).isGreaterThan(1L << 62);

        // Docker put the sandbox and the container inside the pod's cgroup (dockershim's CgroupParent).
        for (String pod : List.of("guaranteed", "burstable", "besteffort")) {
            String podCgroup = pod.equals("guaranteed") ? guaranteed : pod.equals("burstable") ? burstable : bestEffort;
            List<String> ids = Docker.ids(agent.nodeName, "label=io.kubernetes.pod.name=" + pod + "-" + agent.nodeName);
            assertThat(ids).hasSize(2);
            for (String id : ids) {
                assertThat(Docker.inspect(id, "{{.HostConfig.CgroupParent}}")).isEqualTo(podCgroup);
                assertThat(processCgroup(id, "memory")).startsWith(podCgroup + "/" + id); // ids listed short
                assertThat(processCgroup(id, "pids")).startsWith(podCgroup + "/" + id);
            }
        }

        // A removed pod's cgroup goes, and its QoS class's shares follow.
        agent.removeManifest("burstable.yaml");
        await().atMost(Duration.ofSeconds(30)).until(() -> !HostCgroups.exists("memory", burstable));
        assertThat(HostCgroups.exists("cpu", burstable)).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> "2".equals(HostCgroups.read("cpu", kubepods + "/burstable", "cpu.shares")));
        assertThat(HostCgroups.exists("memory", guaranteed)).isTrue();
    }

    @Test
    void aPodCannotForkPastPodPidsLimit() throws Exception {
        startAgent("--pod-max-pids", "10");
        // A subshell starts twenty sleeps: the forks past the limit fail, so it says so and dies; the container
        // goes on (exec forks nothing) with the sleeps that got a PID.
        agent.writeManifest("forks.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: forks}
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: forker
                    image: %s
                    command: ["sh", "-c", "(i=0; while [ $i -lt 20 ]; do sleep 600 & i=$((i+1)); done); echo forked; exec sleep 3600"]
                """.formatted(IMAGE));
        String pod = podCgroup("forks", "/besteffort");

        assertThat(HostCgroups.read("pids", pod, "pids.max")).isEqualTo("10");
        String forker = Docker.running(agent.nodeName, "label=io.kubernetes.container.name=forker").getFirst();
        String container = processCgroup(forker, "pids");
        assertThat(container).startsWith(pod + "/");
        await().atMost(Duration.ofSeconds(30)).until(() -> Docker.run("logs", forker).out().contains("forked"));
        assertThat(Docker.run("logs", forker).out()).contains("can't fork");
        // The kernel counts the forks it refused ("max <n>", in the forking cgroup on v1), and never let the pod
        // hold more than its limit.
        assertThat(Long.parseLong(HostCgroups.read("pids", container, "pids.events").replaceAll("\\D+", ""))).isPositive();
        assertThat(Long.parseLong(HostCgroups.read("pids", pod, "pids.current"))).isLessThanOrEqualTo(10);
        assertThat(Long.parseLong(HostCgroups.read("pids", pod, "pids.peak"))).isEqualTo(10);
    }

    @Test
    void aCgroupDriverOtherThanDockersStopsTheStart() throws Exception {
        // The root cgroup, so that the systemd form of the cgroup root exists and the driver check is what fails.
        assertThatThrownBy(() -> startAgent("--cgroup-driver", "systemd", "--cgroup-root", "/"))
                .hasStackTraceContaining("jkubelet exited with 1")
                .hasStackTraceContaining("misconfiguration: kubelet cgroup driver: \"systemd\" is different from docker "
                        + "cgroup driver: \"cgroupfs\"");
        assertThat(HostCgroups.exists("cpu", "/kubepods.slice")).isFalse();
    }
}
