package io.jkubelet.cmd.e2e;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The agent's ordered stop on SIGTERM, on the real Docker engine: as upstream, its pods outlive it. */
class ShutdownIT extends AgentTestBase {
    /** 20 by default; {@code -Djkubelet.shutdownIT.pods=110} for the node's full load (the measure). */
    static final int PODS = Integer.getInteger("jkubelet.shutdownIT.pods", 20);

    @Test
    void sigtermExitsZeroLeavesEveryContainerRunningAndTheNextStartAdoptsThem() throws Exception {
        startAgent();
        for (int i = 0; i < PODS; i++) {
            agent.writeManifest("p" + i + ".yaml", """
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: p%d}
                    spec:
                      containers:
                      - {name: c, image: %s, command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]}
                    """.formatted(i, IMAGE));
        }
        awaitAllRunning();
        List<String> containers = Docker.running(agent.nodeName);
        assertThat(containers).hasSize(2 * PODS); // each pod's sandbox and its container

        long sigterm = System.nanoTime();
        assertThat(agent.terminate()).as(agent.logText()).isZero();
        System.out.printf("%d pods: SIGTERM to exit %d ms%n", PODS, (System.nanoTime() - sigterm) / 1_000_000);
        assertThat(agent.logText()).contains("Received SIGTERM: stopping (containers keep running)", "Stopped in ");
        System.out.println("stop: " + agent.logText().lines().filter(l -> l.contains("Stopped in ")).findFirst().orElseThrow());
        assertThat(Docker.running(agent.nodeName)).containsExactlyInAnyOrderElementsOf(containers);

        agent.start();
        awaitAllRunning();
        // Adopted: the same containers run, none was created, none stopped.
        assertThat(Docker.running(agent.nodeName)).containsExactlyInAnyOrderElementsOf(containers);
        assertThat(Docker.ids(agent.nodeName)).containsExactlyInAnyOrderElementsOf(containers);
    }

    private void awaitAllRunning() {
        await().atMost(Duration.ofSeconds(60 + 3L * PODS)).pollInterval(Duration.ofMillis(500)).until(() -> {
            var pods = agent.pods();
            return pods.size() == PODS && pods.stream().allMatch(p -> p.getStatus() != null && running(p));
        });
    }
}
