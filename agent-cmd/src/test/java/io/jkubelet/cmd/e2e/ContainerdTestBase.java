package io.jkubelet.cmd.e2e;

import io.jkubelet.core.runtime.ExecResult;
import io.jkubelet.core.runtime.testing.RuntimePods;
import io.jkubelet.cri.CriRuntime;
import io.jkubelet.cri.CriRuntimeFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * One agent per test on the system containerd that {@code jk_ensure_containerd} starts (its CRI plugin on the default
 * socket), with its sandboxes and containers removed afterwards; the test reaches the runtime as {@code crictl} does,
 * through the CRI adapter's client ({@link #cri()}).
 */
@Tag("containerd")
abstract class ContainerdTestBase extends AgentOnRuntimeBase {
    static final String ENDPOINT = "unix:///run/containerd/containerd.sock";
    static final String SOCKET = "/run/containerd/containerd.sock";

    /**
     * The local registries' names of the test image, which a test interrupted before its clean-up leaves in containerd:
     * containerd reports an image's first repo tag as the image of its containers, so such a name would stand before
     * {@code docker.io/jkubelet/busybox:1.0} in every later pod's status. The tests that pull them remove them too.
     */
    @BeforeAll
    static void forgetTheRegistryNamesOfTheTestImage() throws Exception {
        ctr("images", "rm", ImagePullIT.REGISTRY + "/jkubelet/busybox:1.0",
                ImagePullIT.AUTH_REGISTRY + "/jkubelet/busybox:1.0");
    }

    @Override
    List<String> runtimeArgs() {
        return List.of("--container-runtime-endpoint", ENDPOINT);
    }

    @Override
    String nodePrefix() {
        return "e2e-ctrd-";
    }

    @Override
    void removeFromRuntime(String nodeName) {
        try (CriRuntime runtime = cri()) {
            RuntimePods.removeAll(runtime, nodeName);
        }
    }

    /**
     * Stops a cluster node's agent on containerd and removes its pods from containerd, which only a stopped agent
     * leaves alone ({@link RealClusterBase} stops it again, idly).
     */
    static void stopAndRemovePods(Agent agent) throws Exception {
        if (agent != null) {
            agent.stop();
            try (CriRuntime runtime = cri()) {
                RuntimePods.removeAll(runtime, agent.nodeName);
            }
        }
    }

    /** A client of the runtime's CRI, as crictl is; closed by the caller. */
    static CriRuntime cri() {
        return CriRuntimeFactory.connect(ENDPOINT, null, Duration.ofMinutes(1));
    }

    /** {@code crictl exec <id> <command>}: what the command printed on stdout; it must exit 0. */
    static String exec(String containerId, String... command) {
        try (CriRuntime runtime = cri()) {
            ExecResult r = runtime.execSync(containerId, List.of(command), Duration.ofSeconds(30));
            if (r.exitCode() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + r.exitCode() + ": "
                        + new String(r.stderr(), StandardCharsets.UTF_8));
            }
            return new String(r.stdout(), StandardCharsets.UTF_8);
        }
    }

    /** {@code ctr -n k8s.io <args>}: containerd's own client, for what the CRI cannot do (remove one image name). */
    static String ctr(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("ctr", "--address", SOCKET, "-n", "k8s.io"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }
}
