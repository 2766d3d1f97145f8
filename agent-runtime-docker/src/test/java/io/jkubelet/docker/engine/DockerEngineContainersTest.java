package io.jkubelet.docker.engine;

import io.jkubelet.docker.engine.ContainerInspect.ContainerState;
import io.jkubelet.docker.engine.EngineContainers.LogsOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The container calls of {@link DockerEngine} against this machine's Docker engine. */
@Tag("docker")
class DockerEngineContainersTest {
    static final String BUSYBOX = "jkubelet/busybox:1.0";
    /** Every container these tests make carries it, with the run's id, so that only they are removed. */
    static final String TEST_LABEL = "io.jkubelet.test";

    private static DockerEngine engine;
    private final String run = "engine-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> made = new ArrayList<>();

    @BeforeAll
    static void connect() {
        engine = DockerEngine.connect("unix:///var/run/docker.sock", Duration.ofMinutes(2));
    }

    @AfterAll
    static void disconnect() {
        engine.close();
    }

    @AfterEach
    void removeWhatTheTestMade() {
        for (ContainerSummary c : engine.containers().list(true, Map.of("label", List.of(TEST_LABEL + "=" + run)))) {
            engine.containers().remove(c.id(), true, true);
        }
    }

    @Test
    void pingVersionAndInfoDescribeTheDaemonAtTheNegotiatedVersion() {
        assertThat(engine.ping()).isEqualTo("1.41");
        assertThat(engine.apiVersion()).isEqualTo("1.41");
        SystemVersion version = engine.version();
        assertThat(version.apiVersion()).isEqualTo("1.41");
        assertThat(version.version()).startsWith("20.10");
        SystemInfo info = engine.info();
        assertThat(info.dockerRootDir()).startsWith("/");
        assertThat(info.cgroupDriver()).isIn("cgroupfs", "systemd");
        assertThat(info.driver()).isNotBlank();
    }

    @Test
    void callsReuseOneKeptAliveConnection() {
        for (int i = 0; i < 5; i++) {
            engine.version();
            engine.containers().list(false, Map.of("label", List.of(TEST_LABEL + "=" + run)));
        }

        assertThat(engine.idleConnections()).isEqualTo(1);
    }

    @Test
    void aContainerIsCreatedStartedListedByLabelStoppedKilledAndRemoved() {
        HostConfig host = HostConfig.builder().restartPolicy(HostConfig.RestartPolicy.no())
                .logConfig(new HostConfig.LogConfig("json-file", Map.of("max-size", "1000000")))
                .cpuShares(512L).memory(64L << 20).memorySwap(64L << 20).utsMode("host")
                .securityOpt(List.of("no-new-privileges")).build();
        String id = create("life", List.of("sh", "-c", "trap 'exit 0' TERM; while true; do sleep 1; done"), host);

        ContainerInspect created = engine.containers().inspect(id);
        assertThat(created.name()).isEqualTo("/" + run + "-life");
        assertThat(created.state().status()).isEqualTo("created");
        assertThat(created.config().labels()).containsEntry(TEST_LABEL, run);
        assertThat(created.hostConfig().logConfig().config()).containsEntry("max-size", "1000000");
        assertThat(created.hostConfig().restartPolicy().name()).isEqualTo("no");
        assertThat(created.hostConfig().cpuShares()).isEqualTo(512L);
        assertThat(created.hostConfig().memory()).isEqualTo(64L << 20);
        assertThat(created.hostConfig().utsMode()).isEqualTo("host");
        assertThat(created.hostConfig().securityOpt()).containsExactly("no-new-privileges");

        engine.containers().start(id);
        ContainerState running = engine.containers().inspect(id).state();
        assertThat(running.running()).isTrue();
        assertThat(running.pid()).isPositive();
        assertThat(engine.containers().list(false, Map.of("label", List.of(TEST_LABEL + "=" + run))))
                .extracting(ContainerSummary::id, ContainerSummary::state).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(id, "running"));

        engine.containers().stop(id, Duration.ofSeconds(30));
        ContainerState stopped = engine.containers().inspect(id).state();
        assertThat(stopped.running()).isFalse();
        assertThat(stopped.exitCode()).isZero();
        assertThat(engine.containers().list(false, Map.of("label", List.of(TEST_LABEL + "=" + run)))).isEmpty();
        assertThat(engine.containers().list(true, Map.of("label", List.of(TEST_LABEL + "=" + run),
                "status", List.of("exited")))).extracting(ContainerSummary::id).containsExactly(id);

        engine.containers().start(id);
        engine.containers().kill(id, "SIGKILL");
        await().atMost(Duration.ofMinutes(1)).until(() -> !engine.containers().inspect(id).state().running());
        assertThat(engine.containers().inspect(id).state().exitCode()).isEqualTo(137);

        engine.containers().remove(id, false, true);
        assertThatThrownBy(() -> engine.containers().inspect(id)).isInstanceOf(EngineCallException.NotFound.class);
    }

    @Test
    void startingARunningOrStoppingAStoppedContainerIsNotModified() {
        String id = create("twice", List.of("sleep", "1000"), null);
        engine.containers().start(id);

        assertThatThrownBy(() -> engine.containers().start(id)).isInstanceOf(EngineCallException.NotModified.class);
        engine.containers().kill(id, "9");
        await().atMost(Duration.ofMinutes(1)).until(() -> !engine.containers().inspect(id).state().running());
        assertThatThrownBy(() -> engine.containers().stop(id, Duration.ZERO))
                .isInstanceOf(EngineCallException.NotModified.class);
    }

    @Test
    void aNameInUseIsAConflictAndRemovingARunningContainerWithoutForceIsOne() {
        String id = create("taken", List.of("sleep", "1000"), null);

        assertThatThrownBy(() -> create("taken", List.of("true"), null))
                .isInstanceOf(EngineCallException.Conflict.class)
                .hasMessageContaining("create container " + run + "-taken")
                .hasMessageContaining("is already in use");
        engine.containers().start(id);
        assertThatThrownBy(() -> engine.containers().remove(id, false, false))
                .isInstanceOf(EngineCallException.Conflict.class).hasMessageContaining("running container");
    }

    @Test
    void anUnknownContainerIsNotFoundWithTheDaemonsMessage() {
        assertThatThrownBy(() -> engine.containers().inspect("no-such-container-" + run))
                .isInstanceOf(EngineCallException.NotFound.class)
                .hasMessage("inspect container no-such-container-" + run + ": No such container: no-such-container-"
                        + run)
                .extracting(e -> ((EngineCallException) e).status()).isEqualTo(404);
    }

    @Test
    void aDeadSocketIsAnErrorNamingTheEndpoint() {
        assertThatThrownBy(() -> DockerEngine.connect("unix:///tmp/jkubelet-no-daemon-" + run + ".sock", null))
                .isInstanceOf(EngineCallException.Unreachable.class)
                .hasMessageContaining("cannot connect to the Docker daemon at unix:///tmp/jkubelet-no-daemon-" + run
                        + ".sock")
                .hasMessageContaining("is dockerd running?");
    }

    @Test
    void logsOfAContainerWithoutTtyAreFramesPerStreamWithTailAndTimestamps() throws IOException {
        String id = create("logs", List.of("sh", "-c", "echo one; echo two >&2; echo three"), null);
        runToEnd(id);

        // Docker copies stdout and stderr apart, so only each stream's own order is kept.
        assertThat(frames(engine.containers().logs(id, LogsOptions.all())))
                .containsExactlyInAnyOrder("STDOUT:one\n", "STDERR:two\n", "STDOUT:three\n")
                .filteredOn(f -> f.startsWith("STDOUT")).containsExactly("STDOUT:one\n", "STDOUT:three\n");
        assertThat(frames(engine.containers().logs(id, new LogsOptions(false, true, false, null, null, true))))
                .singleElement().asString().matches("STDERR:\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d+Z two\n");
        // The tail counts lines of both streams, whose order Docker does not keep: a container of one stream.
        String onlyStdout = create("tail", List.of("sh", "-c", "echo one; echo two; echo three"), null);
        runToEnd(onlyStdout);
        assertThat(frames(engine.containers().logs(onlyStdout, new LogsOptions(true, true, false, null, 2, false))))
                .containsExactly("STDOUT:two\n", "STDOUT:three\n");
        long future = System.currentTimeMillis() / 1000 + 3600;
        assertThat(frames(engine.containers().logs(id, new LogsOptions(true, true, false, String.valueOf(future),
                null, false)))).isEmpty();
    }

    @Test
    void logsOfAContainerWithTtyAreItsRawBytes() throws IOException {
        String id = engine.containers().create(run + "-tty", ContainerConfig.of(BUSYBOX,
                List.of("sh", "-c", "echo one; echo two >&2"), Map.of(TEST_LABEL, run)).withTty(true, false, false))
                .id();
        runToEnd(id);

        try (InputStream logs = engine.containers().logs(id, LogsOptions.all())) {
            assertThat(new String(logs.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("one\r\ntwo\r\n");
        }
    }

    @Test
    void followedLogsComeAsWrittenAndEndWhenTheContainerDoes() throws IOException {
        String id = create("follow", List.of("sh", "-c", "echo ready; exec sleep 1000"), null);
        engine.containers().start(id);

        try (InputStream logs = engine.containers().logs(id, new LogsOptions(true, true, true, null, null, false))) {
            LogFrames frames = new LogFrames(logs);
            assertThat(new String(frames.next().payload(), StandardCharsets.UTF_8)).isEqualTo("ready\n");
            engine.containers().kill(id, "SIGKILL");
            assertThat(frames.next()).isNull();
        }
    }

    @Test
    void oneStatsSampleOfARunningContainer() {
        String id = create("stats", List.of("sleep", "1000"), null);
        engine.containers().start(id);

        ContainerStats stats = engine.containers().stats(id);

        assertThat(stats.read()).isNotBlank();
        assertThat(stats.memoryStats().usage()).isPositive();
        assertThat(stats.cpuStats().cpuUsage().totalUsage()).isPositive();
        assertThat(stats.pidsStats().current()).isEqualTo(1L);
    }

    @Test
    void theEventsOfAContainerStreamWithItsLabels() {
        long since = System.currentTimeMillis() / 1000 - 60;
        try (EngineStream<EventMessage> events = engine.events(String.valueOf(since),
                Map.of("type", List.of("container"), "label", List.of(TEST_LABEL + "=" + run)))) {
            String id = create("events", List.of("true"), null);
            engine.containers().start(id);

            List<String> seen = new ArrayList<>();
            for (EventMessage e; seen.size() < 3 && (e = events.next()) != null; ) {
                assertThat(e.type()).isEqualTo("container");
                assertThat(e.actor().id()).isEqualTo(id);
                assertThat(e.actor().attributes()).containsEntry(TEST_LABEL, run);
                assertThat(e.timeNano()).isGreaterThan(since * 1_000_000_000L);
                seen.add(e.action());
            }
            assertThat(seen).containsExactly("create", "start", "die");
        }
    }

    @Test
    void aClosedEventStreamStopsItsReader() throws Exception {
        EngineStream<EventMessage> events = engine.events(null, Map.of("label", List.of(TEST_LABEL + "=" + run)));
        List<Throwable> ended = new ArrayList<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                events.next();
            } catch (RuntimeException e) {
                ended.add(e);
            }
        });

        events.close();
        reader.join();

        assertThat(ended).singleElement().isInstanceOf(EngineCallException.Unreachable.class);
    }

    private String create(String name, List<String> cmd, HostConfig host) {
        String id = engine.containers().create(run + "-" + name,
                ContainerConfig.of(BUSYBOX, cmd, Map.of(TEST_LABEL, run)).withHostConfig(host)).id();
        made.add(id);
        return id;
    }

    private static void runToEnd(String id) {
        engine.containers().start(id);
        await().atMost(Duration.ofMinutes(1)).until(() -> !engine.containers().inspect(id).state().running());
    }

    private static List<String> frames(InputStream in) throws IOException {
        try (in) {
            List<String> out = new ArrayList<>();
            LogFrames frames = new LogFrames(in);
            for (LogFrames.Frame f; (f = frames.next()) != null; ) {
                out.add(f.stream() + ":" + new String(f.payload(), StandardCharsets.UTF_8));
            }
            return out;
        }
    }
}
