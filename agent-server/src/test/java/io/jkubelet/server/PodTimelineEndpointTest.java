package io.jkubelet.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.timeline.PodTimelines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code /debug/pods/<namespace>/<name>/timeline} over a crash-looping pod's timeline and status. */
class PodTimelineEndpointTest {
    private static final Instant EXITED = Instant.parse("2026-12-04T12:03:10Z");
    private final Clock clock = Clock.fixed(EXITED.plusSeconds(20), ZoneOffset.UTC);
    private final FakeKubeletView view = new FakeKubeletView();
    private final PodTimelines timelines = new PodTimelines(clock);
    private ServedHandlers served;

    @BeforeEach
    void start() throws Exception {
        view.timelines.set(timelines);
        served = ServedHandlers.start(new KubeletHandlers(view, List.of(),
                new KubeletHandlers.DebuggingOptions(Path.of("/var/log"), true, Duration.ofSeconds(1), clock)),
                ServedHandlers.Group.AUTH_NOT_REQUIRED);
    }

    @AfterEach
    void stop() {
        served.close();
    }

    private static PodStatus crashLooping() {
        return new PodStatusBuilder().withPhase("Running").addToContainerStatuses(new ContainerStatusBuilder().withName("app")
                .withRestartCount(2).withNewState().withNewWaiting().withReason("CrashLoopBackOff")
                .withMessage("back-off 1m0s restarting failed container=app pod=crash_default(u1)").endWaiting().endState()
                .withNewLastState().withNewTerminated().withExitCode(1).withReason("Error").withFinishedAt(EXITED.toString())
                .endTerminated().endLastState().build()).build();
    }

    @Test
    void theEntriesInOrderAndWhyTheContainerWaits() throws Exception {
        Pod pod = new PodBuilder().withNewMetadata().withNamespace("default").withName("crash").withUid("u1").endMetadata()
                .withNewSpec().addNewContainer().withName("app").endContainer().endSpec().withStatus(crashLooping()).build();
        view.pods.set(List.of(pod));
        timelines.admitted(pod);
        timelines.event(References.container(pod, pod.getSpec().getContainers().get(0)), EventRecorder.NORMAL, "Started",
                "Started container app");
        timelines.status(pod, crashLooping());

        HttpResponse<String> r = served.send(served.request("/debug/pods/default/crash/timeline"));

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode json = new ObjectMapper().readTree(r.body());
        assertThat(json.at("/podRef/uid").asText()).isEqualTo("u1");
        assertThat(json.get("phase").asText()).isEqualTo("Running");
        assertThat(json.at("/waiting/0/text").asText())
                .isEqualTo("waiting 40 s more for CrashLoopBackOff; last exit code 1 at 12:03:10");
        assertThat(json.get("entries").findValuesAsText("reason"))
                .containsExactly("Admitted", "Started", "PhaseChanged", "Terminated", "Waiting");
        assertThat(json.at("/entries/3/exitCode").asInt()).isEqualTo(1);
        assertThat(json.at("/entries/3/container").asText()).isEqualTo("app");
        assertThat(json.at("/entries/0/time").asText()).isEqualTo("2026-12-04T12:03:30Z");
    }

    @Test
    void anUnknownPodIs404AndAQueryIs400() throws Exception {
        assertThat(served.send(served.request("/debug/pods/default/nope/timeline"))).satisfies(r -> {
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(r.body()).isEqualTo("pod default/nope has no timeline on this node");
        });
        assertThat(served.send(served.request("/debug/pods/default/nope/timeline?since=1"))).satisfies(r -> {
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(r.body()).isEqualTo("unknown query parameter \"since\": the timeline takes none");
        });
    }
}
