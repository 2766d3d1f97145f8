package io.jkubelet.core.prober;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.jkubelet.core.events.Event;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.probe.ProbeResult;
import io.jkubelet.core.probe.RunningContainers;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.runtime.testing.FakeRuntime.Script;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.testing.Pods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

class ProberTest {
    private static final String POD_IP = "127.0.0.1";

    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final LoggingEventRecorder events = new LoggingEventRecorder(clock);
    private final Prober prober = Prober.create(runtime, events, "v1.30.0");
    private String containerId;
    private HttpServer http;

    @BeforeEach
    void setUp() throws IOException {
        containerId = RunningContainers.start(runtime);
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/healthz", ex -> {
            byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        http.createContext("/elsewhere", ex -> {
            ex.getResponseHeaders().add("Location", "http://localhost:" + http.getAddress().getPort() + "/healthz");
            byte[] body = "moved".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(302, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        http.start();
    }

    @AfterEach
    void tearDown() {
        http.stop(0);
    }

    private static Container app(ProbeType type, Probe probe) {
        ContainerBuilder b = new ContainerBuilder(Pods.container("app"))
                .addNewPort().withName("http").withContainerPort(8080).endPort()
                .addNewEnv().withName("GREETING").withValue("hello").endEnv();
        switch (type) {
            case LIVENESS -> b.withLivenessProbe(probe);
            case READINESS -> b.withReadinessProbe(probe);
            case STARTUP -> b.withStartupProbe(probe);
        }
        return b.build();
    }

    private ProbeResult probe(ProbeType type, Container container, String podIp) {
        Pod pod = Pods.pod("web", container);
        return prober.probe(type, pod, podIp, container, containerId);
    }

    private List<Event> recorded() {
        return events.events();
    }

    private static Probe exec(String... command) {
        return new ProbeBuilder().withNewExec().withCommand(command).endExec().build();
    }

    @Test
    void aContainerWithoutThatProbeIsHealthy() {
        assertThat(probe(ProbeType.READINESS, app(ProbeType.LIVENESS, exec("false")), POD_IP))
                .isEqualTo(ProbeResult.SUCCESS);
        assertThat(runtime.calls()).doesNotContain("execSync");
        assertThat(recorded()).isEmpty();
    }

    @Test
    void execSuccessRecordsNothingAndExpandsTheStaticEnv() {
        runtime.scriptCommand(List.of("echo", "hello"), Script.prints("hello\n", "", 0));

        assertThat(probe(ProbeType.LIVENESS, app(ProbeType.LIVENESS, exec("echo", "$(GREETING)")), POD_IP))
                .isEqualTo(ProbeResult.SUCCESS);
        assertThat(recorded()).isEmpty();
    }

    @Test
    void aFailureIsRecordedAsUnhealthyOnTheContainer() {
        runtime.scriptCommand(List.of("check"), Script.prints("", "db down", 1));

        assertThat(probe(ProbeType.LIVENESS, app(ProbeType.LIVENESS, exec("check")), POD_IP))
                .isEqualTo(ProbeResult.FAILURE);
        assertThat(recorded()).extracting(Event::type, Event::reason, Event::message)
                .containsExactly(tuple(EventRecorder.WARNING, "Unhealthy", "Liveness probe failed: db down"));
        assertThat(recorded().getFirst().involvedObject().getFieldPath()).isEqualTo("spec.containers{app}");
        assertThat(Collections.frequency(runtime.calls(), "execSync")).as("a failure is not retried").isEqualTo(1);
    }

    @ParameterizedTest(name = "timeoutSeconds={0}, command runs {1} ms -> {2}")
    @CsvSource(nullValues = "null", value = {
            "null, 900,  SUCCESS",
            "null, 1500, FAILURE",
            "0,    1500, FAILURE",
            "3,    1500, SUCCESS",
    })
    void theTimeoutIsTimeoutSecondsDefaultingToOne(Integer timeoutSeconds, long runsMillis, ProbeResult expected) {
        runtime.scriptCommand(List.of("slow"), Script.exitsWith(0).lasting(Duration.ofMillis(runsMillis)));
        Probe p = exec("slow");
        p.setTimeoutSeconds(timeoutSeconds);

        assertThat(probe(ProbeType.READINESS, app(ProbeType.READINESS, p), POD_IP)).isEqualTo(expected);
        if (expected == ProbeResult.FAILURE) {
            assertThat(recorded()).extracting(Event::message)
                    .containsExactly("Readiness probe failed: command \"slow\" timed out");
        }
    }

    @Test
    void anHttpGetToThePodIp() {
        Probe p = new ProbeBuilder().withNewHttpGet().withPath("/healthz")
                .withPort(new IntOrString(http.getAddress().getPort())).endHttpGet().build();

        assertThat(probe(ProbeType.STARTUP, app(ProbeType.STARTUP, p), POD_IP)).isEqualTo(ProbeResult.SUCCESS);
        assertThat(recorded()).isEmpty();
    }

    @Test
    void aRedirectNotFollowedIsAWarningEvent() {
        Probe p = new ProbeBuilder().withNewHttpGet().withPath("/elsewhere")
                .withPort(new IntOrString(http.getAddress().getPort())).endHttpGet().build();

        ProbeResult result = probe(ProbeType.READINESS, app(ProbeType.READINESS, p), POD_IP);

        assertThat(result).isEqualTo(ProbeResult.WARNING);
        assertThat(result.passed()).isTrue();
        assertThat(recorded()).extracting(Event::type, Event::reason, Event::message).containsExactly(tuple(
                EventRecorder.WARNING, "ProbeWarning",
                "Readiness probe warning: Probe terminated redirects, Response body: moved"));
    }

    @Test
    void aTcpSocketToThePodIp() throws IOException {
        try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Probe p = new ProbeBuilder().withNewTcpSocket().withPort(new IntOrString(listening.getLocalPort()))
                    .endTcpSocket().build();

            assertThat(probe(ProbeType.LIVENESS, app(ProbeType.LIVENESS, p), POD_IP)).isEqualTo(ProbeResult.SUCCESS);
        }
    }

    @Test
    void anErrorIsRetriedThenRecordedAndUnknown() {
        runtime.exitContainer(containerId, 0, null); // exec now fails: the container is not running

        assertThat(probe(ProbeType.LIVENESS, app(ProbeType.LIVENESS, exec("true")), POD_IP))
                .isEqualTo(ProbeResult.UNKNOWN);
        assertThat(Collections.frequency(runtime.calls(), "execSync")).isEqualTo(Prober.MAX_PROBE_RETRIES);
        assertThat(recorded()).singleElement().satisfies(e -> {
            assertThat(e.reason()).isEqualTo("Unhealthy");
            assertThat(e.message()).startsWith("Liveness probe errored and resulted in unknown state: exec \"true\"")
                    .contains("not running");
        });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "httpGet by an unknown port name | "
                    + "Startup probe errored and resulted in unknown state: port \"metrics\" not found in the ports of container \"app\"",
            "httpGet without a pod IP | "
                    + "Startup probe errored and resulted in unknown state: httpGet of container \"app\" has no host and the pod has no IP yet",
            "tcpSocket without a pod IP | "
                    + "Startup probe errored and resulted in unknown state: tcpSocket probe of container \"app\" has no host and the pod has no IP yet",
            "grpc without a pod IP | "
                    + "Startup probe errored and resulted in unknown state: grpc probe of container \"app\" has no host and the pod has no IP yet",
            "no handler | "
                    + "Startup probe errored and resulted in unknown state: missing probe handler for web_default(uid-web):app",
    })
    void probesThatCannotRunAreErrors(String name, String message) {
        Probe p = switch (name) {
            case "httpGet by an unknown port name" ->
                    new ProbeBuilder().withNewHttpGet().withPort(new IntOrString("metrics")).endHttpGet().build();
            case "httpGet without a pod IP" ->
                    new ProbeBuilder().withNewHttpGet().withPort(new IntOrString("http")).endHttpGet().build();
            case "tcpSocket without a pod IP" ->
                    new ProbeBuilder().withNewTcpSocket().withPort(new IntOrString(80)).endTcpSocket().build();
            case "grpc without a pod IP" -> new ProbeBuilder().withNewGrpc().withPort(9090).endGrpc().build();
            default -> new ProbeBuilder().withPeriodSeconds(10).build();
        };
        String podIp = name.contains("without a pod IP") ? null : POD_IP;

        assertThat(probe(ProbeType.STARTUP, app(ProbeType.STARTUP, p), podIp)).isEqualTo(ProbeResult.UNKNOWN);
        assertThat(recorded()).extracting(Event::type, Event::reason, Event::message)
                .containsExactly(tuple(EventRecorder.WARNING, "Unhealthy", message));
    }
}
