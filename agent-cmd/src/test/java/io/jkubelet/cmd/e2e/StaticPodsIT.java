package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Static pods on real Docker, driven through manifest files as an operator would. */
class StaticPodsIT extends AgentTestBase {

    @Test
    void containersOfAPodShareLocalhostAndAnEmptyDir() throws Exception {
        startAgent();
        agent.writeManifest("web.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: web}
                spec:
                  containers:
                  - name: server
                    image: %1$s
                    command: ["sh", "-c", "trap 'exit 0' TERM; httpd -f -p 8080 -h /www & wait"]
                    volumeMounts: [{name: content, mountPath: /www}]
                  - name: writer
                    image: %1$s
                    command: ["sh", "-c", "trap 'exit 0' TERM; echo hello-from-writer > /data/index.html; sleep 3600 & wait"]
                    volumeMounts: [{name: content, mountPath: /data}]
                  volumes:
                  - name: content
                    emptyDir: {}
                """.formatted(IMAGE));
        Pod pod = awaitPod("web", Duration.ofSeconds(60), AgentTestBase::running);
        assertThat(pod.getMetadata().getNamespace()).isEqualTo("default");
        assertThat(pod.getSpec().getNodeName()).isEqualTo(agent.nodeName);
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("kubernetes.io/config.source", "file")
                .containsKey("kubernetes.io/config.hash").containsKey("kubernetes.io/config.seen");
        assertThat(pod.getStatus().getPodIP()).isNotEmpty();
        String writer = id(container(pod, "writer").orElseThrow());
        // The writer fetches, over localhost, what the server serves from the volume they share.
        await().atMost(Duration.ofSeconds(20)).until(() ->
                Docker.exec(writer, "wget", "-qO-", "http://localhost:8080/index.html").out().equals("hello-from-writer"));
        // Docker shows the kubelet's names and labels.
        String name = Docker.inspect(writer, "{{.Name}}");
        assertThat(name).isEqualTo("/k8s_writer_web-" + agent.nodeName + "_default_" + pod.getMetadata().getUid() + "_0");
        assertThat(Docker.inspect(writer, "{{index .Config.Labels \"io.kubernetes.pod.name\"}}"))
                .isEqualTo("web-" + agent.nodeName);
        // /runningpods/ shows what the runtime runs: the pod and its two containers.
        List<Pod> running = Agent.parsePods(agent.get(agent.readOnlyPort, "/runningpods/").orElseThrow());
        assertThat(running).singleElement().satisfies(p -> {
            assertThat(p.getMetadata().getUid()).isEqualTo(pod.getMetadata().getUid());
            assertThat(p.getSpec().getContainers()).extracting(c -> c.getName()).containsExactlyInAnyOrder("server", "writer");
        });
        // Logs are where node tooling looks.
        Path podLogDir = agent.podLogs.resolve("default_web-" + agent.nodeName + "_" + pod.getMetadata().getUid());
        assertThat(podLogDir.resolve("server/0.log")).exists();
        try (var links = Files.list(agent.containerLogs)) {
            assertThat(links.map(p -> p.getFileName().toString()).toList())
                    .contains("web-" + agent.nodeName + "_default_writer-" + writer + ".log");
        }
    }

    @Test
    void initContainersRunInOrderBeforeAppContainers() throws Exception {
        startAgent();
        agent.writeManifest("init.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: init}
                spec:
                  initContainers:
                  - {name: first, image: %1$s, command: ["sh", "-c", "echo first >> /work/order"], volumeMounts: [{name: w, mountPath: /work}]}
                  - {name: second, image: %1$s, command: ["sh", "-c", "echo second >> /work/order"], volumeMounts: [{name: w, mountPath: /work}]}
                  containers:
                  - {name: app, image: %1$s, command: ["sh", "-c", "echo app >> /work/order; trap 'exit 0' TERM; sleep 3600 & wait"], volumeMounts: [{name: w, mountPath: /work}]}
                  volumes: [{name: w, emptyDir: {}}]
                """.formatted(IMAGE));
        Pod pod = awaitPod("init", Duration.ofSeconds(60), AgentTestBase::running);
        assertThat(pod.getStatus().getInitContainerStatuses()).extracting(ContainerStatus::getName).containsExactly("first", "second");
        assertThat(pod.getStatus().getInitContainerStatuses()).allSatisfy(s -> {
            assertThat(s.getState().getTerminated().getReason()).isEqualTo("Completed");
            assertThat(s.getState().getTerminated().getExitCode()).isZero();
        });
        assertThat(pod.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Initialized");
            assertThat(c.getStatus()).isEqualTo("True");
        });
        String app = id(container(pod, "app").orElseThrow());
        await().atMost(Duration.ofSeconds(10)).until(() -> Docker.exec(app, "cat", "/work/order").out().equals("first\nsecond\napp"));
    }

    @Test
    void crashingContainerBacksOffWithGrowingDelays() throws Exception {
        startAgent();
        agent.writeManifest("crash.yaml", E2ePods.crash("fail", "echo failing; exit 3"));
        Pod first = awaitPod("crash", Duration.ofSeconds(60), p -> container(p, "fail").map(c ->
                c.getState().getWaiting() != null && "CrashLoopBackOff".equals(c.getState().getWaiting().getReason())).orElse(false));
        ContainerStatus c1 = container(first, "fail").orElseThrow();
        assertThat(c1.getState().getWaiting().getMessage()).startsWith("back-off 10s restarting failed container=fail pod=crash-" + agent.nodeName + "_default(");
        assertThat(c1.getLastState().getTerminated().getExitCode()).isEqualTo(3);
        assertThat(c1.getLastState().getTerminated().getReason()).isEqualTo("Error");
        assertThat(first.getStatus().getPhase()).isEqualTo("Running");
        // The next back-off doubles.
        Pod later = awaitPod("crash", Duration.ofSeconds(60), p -> container(p, "fail").map(c ->
                c.getState().getWaiting() != null && c.getState().getWaiting().getMessage() != null
                        && c.getState().getWaiting().getMessage().startsWith("back-off 20s")).orElse(false));
        assertThat(container(later, "fail").orElseThrow().getRestartCount()).isGreaterThan(c1.getRestartCount());
        assertThat(agent.logText()).contains("Back-off restarting failed container fail in pod crash-" + agent.nodeName + "_default(");
    }

    @Test
    void onFailurePodEndsSucceeded() throws Exception {
        startAgent();
        agent.writeManifest("job.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: job}
                spec:
                  restartPolicy: OnFailure
                  containers:
                  - {name: work, image: %s, command: ["sh", "-c", "echo working; exit 0"]}
                """.formatted(IMAGE));
        Pod pod = awaitPod("job", Duration.ofSeconds(60), p -> "Succeeded".equals(p.getStatus().getPhase()));
        ContainerStatus c = container(pod, "work").orElseThrow();
        assertThat(c.getState().getTerminated().getReason()).isEqualTo("Completed");
        assertThat(c.getRestartCount()).isZero();
        assertThat(pod.getStatus().getConditions()).anySatisfy(x -> {
            assertThat(x.getType()).isEqualTo("Ready");
            assertThat(x.getReason()).isEqualTo("PodCompleted");
        });
    }

    @Test
    void editingAManifestRestartsOnlyTheChangedContainer() throws Exception {
        startAgent();
        // With metadata.uid set the pod keeps its UID across edits (as upstream), so only the spec change acts.
        String manifest = """
                apiVersion: v1
                kind: Pod
                metadata: {name: edit, uid: 7d1c9a52-1111-4c2b-9a35-000000000001}
                spec:
                  containers:
                  - {name: stays, image: %1$s, command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]}
                  - {name: changes, image: %1$s, command: ["sh", "-c", "trap 'exit 0' TERM; sleep %2$s & wait"]}
                """;
        agent.writeManifest("edit.yaml", manifest.formatted(IMAGE, "3600"));
        Pod before = awaitPod("edit", Duration.ofSeconds(60), AgentTestBase::running);
        String stays = id(container(before, "stays").orElseThrow());
        String changes = id(container(before, "changes").orElseThrow());
        String sandbox = Docker.inspect(stays, "{{index .Config.Labels \"io.kubernetes.sandbox.id\"}}");

        agent.writeManifest("edit.yaml", manifest.formatted(IMAGE, "7200"));
        Pod after = awaitPod("edit", Duration.ofSeconds(60), p -> running(p)
                && !id(container(p, "changes").orElseThrow()).equals(changes));
        assertThat(id(container(after, "stays").orElseThrow())).isEqualTo(stays);
        assertThat(container(after, "stays").orElseThrow().getRestartCount()).isZero();
        assertThat(container(after, "changes").orElseThrow().getRestartCount()).isEqualTo(1);
        assertThat(Docker.running(agent.nodeName, "label=io.kubernetes.docker.type=podsandbox")).hasSize(1);
        assertThat(Docker.inspect(id(container(after, "changes").orElseThrow()), "{{index .Config.Labels \"io.kubernetes.sandbox.id\"}}"))
                .isEqualTo(sandbox);
        assertThat(agent.logText()).contains("Container changes definition changed, will be restarted");
    }

    @Test
    void deletingAManifestStopsThePodWithinItsGracePeriod() throws Exception {
        startAgent();
        Path shared = Files.createDirectories(dir.resolve("shared"));
        agent.writeManifest("term.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: term}
                spec:
                  terminationGracePeriodSeconds: 3
                  containers:
                  - name: polite
                    image: %1$s
                    command: ["sh", "-c", "trap 'echo got-sigterm > /shared/polite; exit 0' TERM; sleep 3600 & wait"]
                    volumeMounts: [{name: shared, mountPath: /shared}]
                  - name: stubborn
                    image: %1$s
                    command: ["sleep", "3600"]
                  volumes:
                  - name: shared
                    hostPath: {path: %2$s, type: Directory}
                """.formatted(IMAGE, shared));
        Pod pod = awaitPod("term", Duration.ofSeconds(60), AgentTestBase::running);
        String uid = pod.getMetadata().getUid();
        String stubborn = id(container(pod, "stubborn").orElseThrow());
        agent.removeManifest("term.yaml");
        // The polite container got SIGTERM and exited; the stubborn one was killed after the grace period.
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(shared.resolve("polite")));
        assertThat(Files.readString(shared.resolve("polite")).trim()).isEqualTo("got-sigterm");
        await().atMost(Duration.ofSeconds(30)).until(() -> Docker.ids(agent.nodeName).isEmpty());
        assertThat(agent.pod("term")).isEmpty();
        assertThat(agent.logText()).contains("Stopping container stubborn");
        await().atMost(Duration.ofSeconds(10)).until(() -> !Files.exists(dir.resolve("root/pods/" + uid)));
        assertThat(Docker.run("inspect", stubborn).exitCode()).isNotZero();
    }

    @Test
    void killedAndRestartedAgentRestartsNothing() throws Exception {
        startAgent();
        agent.writeManifest("keep.yaml", E2ePods.keep());
        Pod before = awaitPod("keep", Duration.ofSeconds(60), AgentTestBase::running);
        List<String> idsBefore = Docker.ids(agent.nodeName);
        String startedA = Docker.inspect(id(container(before, "a").orElseThrow()), "{{.State.StartedAt}}");
        agent.kill9();
        agent.start();
        Pod after = awaitPod("keep", Duration.ofSeconds(60), AgentTestBase::running);
        // Give the new agent time to act on what it found, then look: nothing was restarted or duplicated.
        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> true);
        assertThat(Docker.ids(agent.nodeName)).containsExactlyInAnyOrderElementsOf(idsBefore);
        assertThat(Docker.inspect(id(container(after, "a").orElseThrow()), "{{.State.StartedAt}}")).isEqualTo(startedA);
        assertThat(after.getStatus().getContainerStatuses()).allSatisfy(c -> assertThat(c.getRestartCount()).isZero());
        assertThat(after.getMetadata().getUid()).isEqualTo(before.getMetadata().getUid());
    }

    @Test
    void aBadManifestIsSkippedAndOthersRun() throws Exception {
        startAgent();
        agent.writeManifest("bad.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: bad}
                spec:
                  containers:
                  - {name: x, image: "UPPER CASE is not an image", command: ["true"]}
                """);
        agent.writeManifest("good.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: good}
                spec:
                  containers:
                  - {name: a, image: %s, command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]}
                """.formatted(IMAGE));
        awaitPod("good", Duration.ofSeconds(60), AgentTestBase::running);
        assertThat(agent.pod("bad")).isEmpty();
        await().atMost(Duration.ofSeconds(10)).until(() -> agent.logText().contains("bad.yaml"));
        // Fixing the file starts the pod.
        agent.writeManifest("bad.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: bad}
                spec:
                  containers:
                  - {name: x, image: %s, command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]}
                """.formatted(IMAGE));
        awaitPod("bad", Duration.ofSeconds(60), AgentTestBase::running);
        assertThat(agent.pod("good")).isPresent();
    }

    /**
     * Manifests built to exhaust a decoder: 8 MB of annotations (once enough to take the whole heap and end the
     * file source's reads for good, so no pod ran), 1.4 MiB of them (under the size limit, over the 256 KiB that
     * annotations may have) and JSON nested 200 deep. Each is refused by name; the good pod runs, a manifest
     * written afterwards runs too, and {@code /healthz} answers throughout.
     */
    @Test
    void manifestsTooLargeOrTooDeepAreRefusedByNameAndCostNothingElse() throws Exception {
        startAgent();
        agent.writeManifest("huge.yaml", withAnnotations(400_000));
        agent.writeManifest("annotated.yaml", withAnnotations(75_000));
        agent.writeManifest("deep.json", "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"x\": " + "[".repeat(200)
                + "]".repeat(200) + "}");
        agent.writeManifest("good.yaml", SLEEPER.formatted("good", IMAGE));

        awaitPod("good", Duration.ofSeconds(60), AgentTestBase::running);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(agent.logText())
                .containsPattern("huge.yaml: is \\d+ bytes, larger than the 1.5 MiB a manifest may have")
                .contains("annotated.yaml: metadata.annotations: Too long: must have at most 262144 bytes")
                .contains("deep.json: couldn't parse as pod (invalid JSON: Document nesting depth (65) exceeds"));
        assertThat(agent.healthz()).contains("ok");

        agent.writeManifest("later.yaml", SLEEPER.formatted("later", IMAGE));
        awaitPod("later", Duration.ofSeconds(60), AgentTestBase::running);
        assertThat(agent.healthz()).contains("ok");
        assertThat(agent.pod("huge")).isEmpty();
    }

    private static final String SLEEPER = """
            apiVersion: v1
            kind: Pod
            metadata: {name: %s}
            spec:
              containers:
              - {name: a, image: %s, command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]}
            """;

    /** A pod named {@code huge} with this many annotations (about 19 bytes of YAML each). */
    private static String withAnnotations(int count) {
        StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: Pod\nmetadata:\n  name: huge\n  annotations:\n");
        for (int i = 0; i < count; i++) {
            yaml.append("    a").append(i).append(": v").append(i).append('\n');
        }
        return yaml.append("spec: {containers: [{name: a, image: ").append(IMAGE).append(", command: [\"true\"]}]}\n")
                .toString();
    }
}
