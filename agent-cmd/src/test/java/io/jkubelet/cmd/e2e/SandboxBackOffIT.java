package io.jkubelet.cmd.e2e;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A pod whose sandbox cannot start, on the real engine: its hostPort is held by another process, so Docker cannot
 * publish it ("... address already in use": from docker-proxy, or with the userland proxy off, as the test engine runs,
 * from the listener Docker holds the port with in its place). (A privileged pod, which runc refused on this machine,
 * no longer serves: the test engines' runc wrapper drops the one capability root lacks.) Before, every dead sandbox
 * was a runtime event that started the next try at once: about three tries a second, 565 dead sandboxes in five
 * minutes. Now the pod backs off (10 s, jittered) and container GC (every minute) removes its dead sandboxes but the
 * newest.
 */
class SandboxBackOffIT extends AgentTestBase {

    @Test
    void aPodWhoseSandboxCannotStartIsRetriedWithBackOffAndItsDeadSandboxesAreCollected() throws Exception {
        try (ServerSocket holder = new ServerSocket()) {
            holder.setReuseAddress(true);
            holder.bind(new InetSocketAddress("0.0.0.0", 0));
            sandboxesBackOff(holder.getLocalPort());
        }
    }

    private void sandboxesBackOff(int heldPort) throws Exception {
        startAgent();
        agent.writeManifest("priv.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: priv}
                spec:
                  containers:
                  - name: c
                    image: %s
                    command: ["sleep", "3600"]
                    ports: [{containerPort: 80, hostPort: %d}]
                """.formatted(IMAGE, heldPort));
        long start = System.nanoTime();
        await().atMost(Duration.ofSeconds(30)).until(() -> !sandboxes().isEmpty());
        await().atMost(Duration.ofSeconds(10)).until(() -> agent.logText().contains("FailedCreatePodSandBox"));
        assertThat(agent.logText()).contains("address already in use");

        // Every sandbox ever made in the first 40 s: one try at once, then one each 10 to 15 s.
        Set<String> made = new HashSet<>();
        while (System.nanoTime() - start < Duration.ofSeconds(40).toNanos()) {
            made.addAll(sandboxes());
            Thread.sleep(500);
        }
        System.out.printf("sandboxes made in 40 s: %d%n", made.size());
        assertThat(made).as(agent.logText()).hasSizeBetween(3, 5);

        // Container GC's first pass (a minute after start) leaves the newest dead sandbox, and a try may follow it.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                .until(() -> Docker.ids(agent.nodeName).size() <= 2);
        assertThat(agent.logText()).contains("Flag --maximum-dead-containers has been deprecated");
    }

    private List<String> sandboxes() {
        return Docker.ids(agent.nodeName, "label=io.kubernetes.docker.type=podsandbox");
    }

    @Override
    Agent startAgent(String... extraArgs) throws Exception {
        // The deprecated flag is accepted (with pflag's warning) and -1 is its default: no node-wide limit.
        return super.startAgent("--maximum-dead-containers=-1");
    }
}
