package io.jkubelet.cmd.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.jkubelet.cmd.e2e.apiserver.MockApiserverProcess;
import io.jkubelet.cmd.systemd.OpenFiles;
import io.jkubelet.cmd.systemd.PrivateSystemBus;
import io.jkubelet.cmd.systemd.StandInLogind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Graceful node shutdown of the built jar on the real Docker engine, a cluster node of the mock apiserver, with
 * shutdownGracePeriod 20s and shutdownGracePeriodCriticalPods 10s: regular pods get 10 s, critical ones the other 10 s.
 * The system bus is a private {@code dbus-daemon}; systemd-logind cannot run here (PID 1 is not systemd), so
 * {@link StandInLogind} plays it on that bus: the one mock this test allows. Everything else is the real agent.
 */
class GracefulNodeShutdownIT extends AgentTestBase {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SHUTDOWN_CONFIG = "shutdownGracePeriod: 20s\nshutdownGracePeriodCriticalPods: 10s\n";
    /** A container that ignores SIGTERM: only the SIGKILL at the end of its grace period stops it. */
    private static final String STUBBORN = "trap '' TERM; while true; do sleep 1; done";

    PrivateSystemBus bus;
    StandInLogind logind;
    MockApiserverProcess apiserver;

    @AfterEach
    void stopTheirs() throws Exception {
        if (logind != null) {
            logind.close();
        }
        if (bus != null) {
            bus.close();
        }
        if (apiserver != null) {
            apiserver.stop();
        }
    }

    private Agent agent(String... extraArgs) throws Exception {
        agent = new Agent(dir, "e2e-" + UUID.randomUUID().toString().substring(0, 8), List.of(extraArgs));
        return agent;
    }

    private void manifest(String name, String priority, long terminationGracePeriodSeconds, String command)
            throws Exception {
        agent.writeManifest(name + ".yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s}
                spec:
                  %s
                  terminationGracePeriodSeconds: %d
                  containers:
                  - {name: c, image: %s, command: ["sh", "-c", "%s"]}
                """.formatted(name, priority, terminationGracePeriodSeconds, IMAGE, command));
    }

    private static ContainerStateTerminated terminated(Pod p) {
        return p.getStatus().getContainerStatuses().getFirst().getState().getTerminated();
    }

    private JsonNode node() throws Exception {
        return JSON.readTree(apiserver.get("/api/v1/nodes/" + agent.nodeName));
    }

    private JsonNode readyCondition() throws Exception {
        return StreamSupport.stream(node().at("/status/conditions").spliterator(), false)
                .filter(c -> c.path("type").asText().equals("Ready")).findFirst().orElseThrow();
    }

    @Test
    void prepareForShutdownStopsRegularPodsBeforeCriticalOnesEachWithinItsBudgetReleasesTheLockAndACancellationTakesItAgain() throws Exception {
        bus = PrivateSystemBus.start(dir.resolve("bus"));
        // Logind allows 30 s already: the drop-in under /etc is not needed (LogindInhibitorTest shows it).
        logind = StandInLogind.start(bus.address(), dir.resolve("logind"), dir.resolve("logind.conf.d"), 30);
        apiserver = new MockApiserverProcess(dir.resolve("apiserver")).start();
        agent("--config", configFile(SHUTDOWN_CONFIG).toString(), "--kubeconfig", apiserver.kubeconfig.toString());
        agent.environment.put("DBUS_SYSTEM_BUS_ADDRESS", bus.address());
        agent.start();

        // Regular pods: one that stops on its own 6 s, one whose 300 s the group's 10 s cut short; a critical one.
        manifest("regular", "", 6, STUBBORN);
        manifest("slow", "", 300, STUBBORN);
        manifest("critical", "priorityClassName: system-node-critical\n  priority: 2000001000", 30,
                "trap 'exit 0' TERM; sleep 3600 & wait");
        for (String name : List.of("regular", "slow", "critical")) {
            awaitPod(name, Duration.ofSeconds(90), AgentTestBase::running);
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> readyCondition().path("status").asText().equals("True"));
        assertThat(logind.inhibitCalls).containsExactly("shutdown kubelet Kubelet needs time to handle node shutdown delay");
        Path lock = logind.fifos.getFirst();
        assertThat(OpenFiles.count(agent.pid(), lock)).as("the agent holds the delay lock").isEqualTo(1);

        Instant sent = Instant.now();
        logind.prepareForShutdown(true);

        // The node reports that it is shutting down.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            JsonNode ready = readyCondition();
            assertThat(ready.path("status").asText()).isEqualTo("False");
            assertThat(ready.path("reason").asText()).isEqualTo("KubeletNotReady");
            assertThat(ready.path("message").asText()).isEqualTo("node is shutting down");
        });
        // Once every pod is stopped the lock is released, and logind may go on.
        await().atMost(Duration.ofSeconds(40)).until(() -> OpenFiles.count(agent.pid(), lock) == 0);
        List<Pod> stopped = List.of(awaitPod("regular", Duration.ofSeconds(30), p -> "Failed".equals(p.getStatus().getPhase())),
                awaitPod("slow", Duration.ofSeconds(30), p -> "Failed".equals(p.getStatus().getPhase())),
                awaitPod("critical", Duration.ofSeconds(30), p -> "Failed".equals(p.getStatus().getPhase())));
        for (Pod p : stopped) {
            assertThat(p.getStatus().getReason()).isEqualTo("Terminated");
            assertThat(p.getStatus().getMessage()).isEqualTo("Pod was terminated in response to imminent node shutdown.");
            PodCondition disruption = p.getStatus().getConditions().stream()
                    .filter(c -> c.getType().equals("DisruptionTarget")).findFirst().orElseThrow();
            assertThat(List.of(disruption.getStatus(), disruption.getReason(), disruption.getMessage())).containsExactly(
                    "True", "TerminationByKubelet", "Pod was terminated in response to imminent node shutdown.");
        }
        Instant regular = Instant.parse(terminated(stopped.get(0)).getFinishedAt());
        Instant slow = Instant.parse(terminated(stopped.get(1)).getFinishedAt());
        Instant critical = Instant.parse(terminated(stopped.get(2)).getFinishedAt());
        // Killed at the end of their grace periods (finishedAt has whole seconds; a few more for the kill itself).
        assertThat(terminated(stopped.get(0)).getExitCode()).isEqualTo(137);
        assertThat(regular).isBefore(sent.plusSeconds(6 + 4));
        assertThat(terminated(stopped.get(1)).getExitCode()).as("the group's 10 s, not its own 300").isEqualTo(137);
        assertThat(slow).isAfterOrEqualTo(sent.plusSeconds(9)).isBefore(sent.plusSeconds(10 + 4));
        // The critical pod is only asked to stop once the regular group's 10 s are over; it stops at once then.
        assertThat(terminated(stopped.get(2)).getExitCode()).isZero();
        assertThat(critical).isAfter(regular).isAfterOrEqualTo(sent.plusSeconds(9)).isBefore(sent.plusSeconds(20 + 4));

        // When it started and ended, in upstream's state file and gauges (read again after the reboot).
        assertThat(java.nio.file.Files.readString(dir.resolve("root/graceful_node_shutdown_state")))
                .matches("\\{\"startTime\":\"[0-9T:.-]+Z\",\"endTime\":\"[0-9T:.-]+Z\"}");
        assertThat(agent.get(agent.readOnlyPort, "/metrics").orElseThrow())
                .containsPattern("(?m)^kubelet_graceful_shutdown_start_time_seconds 1\\.[0-9]+[eE]\\+?0?9$")
                .containsPattern("(?m)^kubelet_graceful_shutdown_end_time_seconds 1\\.[0-9]+[eE]\\+?0?9$");

        // The node's event, and new pods are refused while the node shuts down.
        assertThat(apiserver.get("/api/v1/namespaces/default/events"))
                .contains("\"reason\":\"NodeShutdown\"", "Shutdown manager detected shutdown event");
        manifest("late", "", 30, "sleep 3600");
        Pod late = awaitPod("late", Duration.ofSeconds(30), p -> "Failed".equals(p.getStatus().getPhase()));
        assertThat(late.getStatus().getReason()).isEqualTo("NodeShutdown");
        // Upstream's rejectPod puts "Pod was rejected: " before the handler's message.
        assertThat(late.getStatus().getMessage()).isEqualTo("Pod was rejected: Pod was rejected as the node is shutting down.");
        assertThat(Docker.running(agent.nodeName)).isEmpty();

        // A cancelled shutdown: the agent takes a new lock and the node is ready again at its next status.
        logind.prepareForShutdown(false);
        await().atMost(Duration.ofSeconds(10)).until(() -> logind.fifos.size() == 2);
        await().atMost(Duration.ofSeconds(10)).until(() -> OpenFiles.count(agent.pid(), logind.fifos.get(1)) == 1);
        assertThat(apiserver.get("/api/v1/namespaces/default/events")).contains("Shutdown manager detected shutdown cancellation");
        await().atMost(Duration.ofSeconds(60)).until(() -> readyCondition().path("status").asText().equals("True"));
    }

    @Test
    void withoutASystemBusOneWarningNamesTheSettingsAndPodsRunAsBefore() throws Exception {
        agent("--config", configFile(SHUTDOWN_CONFIG).toString());
        agent.environment.put("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=" + dir.resolve("no-bus/system_bus_socket"));
        agent.start();
        manifest("web", "", 30, "sleep 3600");
        awaitPod("web", Duration.ofSeconds(60), AgentTestBase::running);
        List<String> warnings = agent.logText().lines().filter(l -> l.contains("shutdownGracePeriod")).toList();
        assertThat(warnings).hasSize(1);
        assertThat(warnings.getFirst()).contains("shutdownGracePeriod 20s, shutdownGracePeriodCriticalPods 10s: "
                + "Failed to start node shutdown manager (cannot connect to the system bus at unix:path=")
                .contains("no systemd-logind inhibitor lock is taken and no shutdown is watched, so pods are not "
                        + "stopped before the machine goes down");
    }
}
