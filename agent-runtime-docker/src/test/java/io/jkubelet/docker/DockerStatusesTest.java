package io.jkubelet.docker;

import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.ContainerStatus;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.docker.engine.ContainerInspect;
import io.jkubelet.docker.engine.EngineAnswers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** dockershim's reading of Docker's container states, from inspect answers as Docker writes them. */
class DockerStatusesTest {

    private static final String ZERO = "0001-01-01T00:00:00Z";

    @ParameterizedTest(name = "running={0} exit={1} oom={2} finished={3} -> {4} {5}")
    @CsvSource({
            "true,  0,   false, " + ZERO + ",                   CONTAINER_RUNNING, ''",
            "false, 0,   false, 2026-12-01T10:00:05.5Z,         CONTAINER_EXITED,  Completed",
            "false, 3,   false, 2026-12-01T10:00:05.5Z,         CONTAINER_EXITED,  Error",
            "false, 137, true,  2026-12-01T10:00:05.5Z,         CONTAINER_EXITED,  OOMKilled",
            "false, 0,   true,  2026-12-01T10:00:05.5Z,         CONTAINER_EXITED,  OOMKilled",
            "false, 127, false, " + ZERO + ",                   CONTAINER_EXITED,  ContainerCannotRun",
            "false, 0,   false, " + ZERO + ",                   CONTAINER_CREATED, ''"})
    void stateAndReasonAreDockershims(boolean running, int exitCode, boolean oom, String finishedAt,
                                      ContainerState state, String reason) throws Exception {
        ContainerInspect r = container(running, exitCode, oom, finishedAt,
                reason.equals("ContainerCannotRun") ? "exec: \\\"/nope\\\": no such file" : "");

        ContainerStatus status = DockerStatuses.containerStatus(r, List.of());

        assertThat(status.state()).isEqualTo(state);
        assertThat(status.reason()).isEqualTo(reason);
        assertThat(status.exitCode()).isEqualTo(exitCode);
        if (reason.equals("ContainerCannotRun")) {
            assertThat(status.message()).isEqualTo("exec: \"/nope\": no such file");
            assertThat(status.startedAt()).isEqualTo(status.createdAt());
            assertThat(status.finishedAt()).isEqualTo(status.createdAt());
        }
    }

    @Test
    void timesLabelsMountsAndImageComeFromInspect() throws Exception {
        ContainerInspect r = container(false, 0, false, "2026-12-01T10:00:05.5Z", "");
        ContainerStatus status = DockerStatuses.containerStatus(r, List.of("busybox@sha256:def"));

        assertThat(status.metadata().name()).isEqualTo("app");
        assertThat(status.metadata().attempt()).isEqualTo(4);
        assertThat(status.createdAt()).isEqualTo(Instant.parse("2026-12-01T10:00:00.123456789Z"));
        assertThat(status.startedAt()).isEqualTo(Instant.parse("2026-12-01T10:00:01Z"));
        assertThat(status.finishedAt()).isEqualTo(Instant.parse("2026-12-01T10:00:05.5Z"));
        assertThat(status.labels()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("app", "web"));
        assertThat(status.annotations()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("hash", "1a"));
        assertThat(status.logPath()).isEqualTo("/var/log/pods/ns_web_uid/app/4.log");
        // What the container was created from (Config.Image), not whichever tag the image lists first.
        assertThat(status.image()).isEqualTo(r.config().image());
        assertThat(status.imageRef()).isEqualTo("docker-pullable://busybox@sha256:def");
        assertThat(status.mounts()).containsExactly(new Mount("/data", "/srv/data", true, "private"),
                new Mount("/shared", "/mnt/shared", false, "rslave"));
    }

    @Test
    void sandboxStatusReadsTheBridgeIpAndTheNamespaces() throws Exception {
        ContainerInspect r = EngineAnswers.read("""
                {"Id":"s1","Name":"/k8s_POD_web_ns_uid_1","Created":"2026-12-01T09:59:59Z",
                 "State":{"Running":true,"ExitCode":0,"StartedAt":"2026-12-01T10:00:00Z","FinishedAt":"%s"},
                 "Config":{"Image":"pause:3.9","Labels":{"io.kubernetes.docker.type":"podsandbox",
                   "io.kubernetes.container.name":"POD","app":"web","annotation.seen":"now"}},
                 "HostConfig":{"NetworkMode":"default","IpcMode":"shareable","PidMode":""},
                 "NetworkSettings":{"IPAddress":"172.17.0.5","Networks":{"bridge":{"IPAddress":"172.17.0.5"}}}}
                """.formatted(ZERO), ContainerInspect.class);

        PodSandboxStatus status = DockerStatuses.sandboxStatus(r);

        assertThat(status.state()).isEqualTo(PodSandboxState.SANDBOX_READY);
        assertThat(status.ip()).isEqualTo("172.17.0.5");
        assertThat(status.metadata().attempt()).isEqualTo(1);
        assertThat(status.namespaceOptions().network()).isEqualTo(NamespaceMode.POD);
        assertThat(status.namespaceOptions().ipc()).isEqualTo(NamespaceMode.POD);
        assertThat(status.labels()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("app", "web"));
        assertThat(status.annotations()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("seen", "now"));
    }

    @ParameterizedTest
    @CsvSource({"created, CONTAINER_CREATED", "running, CONTAINER_RUNNING", "exited, CONTAINER_EXITED",
            "paused, CONTAINER_UNKNOWN", "dead, CONTAINER_UNKNOWN"})
    void listedStatesMapToCriStates(String docker, ContainerState cri) {
        assertThat(DockerStatuses.listedState(docker)).isEqualTo(cri);
    }

    private static ContainerInspect container(boolean running, int exitCode, boolean oom, String finishedAt,
                                                      String error) throws Exception {
        String startedAt = finishedAt.equals(ZERO) && !running ? ZERO : "2026-12-01T10:00:01Z";
        return EngineAnswers.read("""
                {"Id":"c1","Name":"/k8s_app_web_ns_uid_4","Created":"2026-12-01T10:00:00.123456789Z",
                 "Image":"sha256:abc",
                 "State":{"Running":%s,"ExitCode":%d,"OOMKilled":%s,"Error":"%s",
                          "StartedAt":"%s","FinishedAt":"%s"},
                 "Config":{"Image":"busybox","Labels":{"io.kubernetes.docker.type":"container",
                   "io.kubernetes.sandbox.id":"s1","io.kubernetes.container.logpath":"/var/log/pods/ns_web_uid/app/4.log",
                   "app":"web","annotation.hash":"1a"}},
                 "Mounts":[{"Source":"/srv/data","Destination":"/data","Mode":"ro","RW":false},
                           {"Source":"/mnt/shared","Destination":"/shared","Mode":"rslave","RW":true}]}
                """.formatted(running, exitCode, oom, error, startedAt, finishedAt), ContainerInspect.class);
    }
}
