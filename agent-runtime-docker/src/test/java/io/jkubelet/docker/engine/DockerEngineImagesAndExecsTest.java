package io.jkubelet.docker.engine;

import io.jkubelet.docker.TestRegistries;
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

import static io.jkubelet.docker.engine.DockerEngineContainersTest.BUSYBOX;
import static io.jkubelet.docker.engine.DockerEngineContainersTest.TEST_LABEL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The image, exec and attach calls of {@link DockerEngine} against this machine's Docker engine and the registries on
 * loopback ({@link TestRegistries}). Only references a test pulled and that were not here before are removed.
 */
@Tag("docker")
class DockerEngineImagesAndExecsTest {
    private static DockerEngine engine;
    private final String run = "engine-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> pulled = new ArrayList<>();

    @BeforeAll
    static void connect() throws Exception {
        TestRegistries.ensure();
        engine = DockerEngine.connect("unix:///var/run/docker.sock", Duration.ofMinutes(2));
    }

    @AfterAll
    static void disconnect() {
        engine.close();
    }

    @AfterEach
    void cleanUp() {
        for (ContainerSummary c : engine.containers().list(true, Map.of("label", List.of(TEST_LABEL + "=" + run)))) {
            engine.containers().remove(c.id(), true, true);
        }
        for (String reference : pulled) {
            engine.images().remove(reference, false, false);
        }
    }

    @Test
    void anImageIsInspectedAndListedByReference() {
        ImageInspect image = engine.images().inspect(BUSYBOX);

        assertThat(image.id()).startsWith("sha256:");
        assertThat(image.repoTags()).contains(BUSYBOX);
        assertThat(image.size()).isPositive();
        assertThat(engine.images().list(false, Map.of("reference", List.of(BUSYBOX))))
                .extracting(ImageSummary::id).containsExactly(image.id());
        assertThatThrownBy(() -> engine.images().inspect("jkubelet/no-such-image:" + run))
                .isInstanceOf(EngineCallException.NotFound.class).hasMessageContaining("No such image");
    }

    @Test
    void aPullFromTheOpenRegistryReportsProgressAndLeavesTheImage() {
        String reference = absent(TestRegistries.OPEN + "/jkubelet/pause:3.9");

        List<ProgressMessage> progress = pull(reference, null);

        assertThat(progress).noneMatch(ProgressMessage::failed);
        assertThat(progress.getLast().status()).contains("Downloaded newer image for " + reference);
        assertThat(engine.images().inspect(reference).repoDigests())
                .anyMatch(d -> d.startsWith(TestRegistries.OPEN + "/jkubelet/pause@sha256:"));
    }

    @Test
    void aPullFromTheAuthenticatingRegistryNeedsItsCredentials() {
        String reference = absent(TestRegistries.AUTH + "/jkubelet/busybox:1.0");

        assertThat(pullFailure(reference, null)).contains("no basic auth credentials");
        assertThat(pullFailure(reference, new AuthConfig(TestRegistries.USER, "wrong", null, TestRegistries.AUTH,
                null, null))).contains("unauthorized");
        List<ProgressMessage> progress = pull(reference, new AuthConfig(TestRegistries.USER, TestRegistries.PASSWORD,
                null, TestRegistries.AUTH, null, null));

        assertThat(progress).noneMatch(ProgressMessage::failed);
        assertThat(engine.images().inspect(reference).repoTags()).contains(reference);
    }

    @Test
    void aPullOfAnUnknownTagFailsWithTheRegistrysMessage() {
        assertThat(pullFailure(TestRegistries.OPEN + "/jkubelet/busybox:no-such-tag-" + run, null))
                .contains("manifest unknown");
    }

    @Test
    void aDetachedExecRunsToItsExitCode() {
        String container = running("exec");

        String exec = engine.execs().create(container, ExecConfig.of(List.of("sh", "-c", "exit 3"), false, false)).id();
        engine.execs().startDetached(exec);

        await().atMost(Duration.ofMinutes(1)).until(() -> !engine.execs().inspect(exec).running());
        ExecInspect done = engine.execs().inspect(exec);
        assertThat(done.exitCode()).isEqualTo(3L);
        assertThat(done.containerId()).isEqualTo(container);
        assertThatThrownBy(() -> engine.execs().inspect("no-such-exec-" + run))
                .isInstanceOf(EngineCallException.NotFound.class);
    }

    @Test
    void anAttachedExecGetsStdinUntilItEndsAndGivesFramedOutput() throws IOException {
        String container = running("exec-stdin");
        String exec = engine.execs().create(container, ExecConfig.of(List.of("sh", "-c", "cat; echo done >&2"),
                true, false)).id();

        try (HijackedStream stream = engine.execs().start(exec, false)) {
            stream.input().write("hello\n".getBytes(StandardCharsets.UTF_8));
            stream.closeStdin();
            assertThat(frames(stream.output())).containsExactly("STDOUT:hello\n", "STDERR:done\n");
        }
        assertThat(engine.execs().inspect(exec).exitCode()).isZero();
    }

    @Test
    void anExecWithTtyIsRawAndResizable() throws IOException {
        String container = running("exec-tty");
        String exec = engine.execs().create(container, ExecConfig.of(List.of("sh", "-c", "read x; stty size"),
                true, true)).id();

        try (HijackedStream stream = engine.execs().start(exec, true)) {
            engine.execs().resize(exec, 40, 100);
            stream.input().write("\n".getBytes(StandardCharsets.UTF_8));
            assertThat(new String(stream.output().readAllBytes(), StandardCharsets.UTF_8)).endsWith("40 100\r\n");
        }
    }

    @Test
    void anAttachGivesTheContainersStdinAndOutput() throws IOException {
        ContainerConfig config = ContainerConfig.of(BUSYBOX, List.of("cat"), Map.of(TEST_LABEL, run))
                .withTty(false, true, true);
        String id = engine.containers().create(run + "-attach", config).id();

        try (HijackedStream stream = engine.containers().attach(id, true, true, true)) {
            engine.containers().start(id);
            stream.input().write("hello\n".getBytes(StandardCharsets.UTF_8));
            stream.closeStdin();
            assertThat(frames(stream.output())).containsExactly("STDOUT:hello\n");
        }
        assertThatThrownBy(() -> engine.containers().attach("no-such-container-" + run, false, true, true))
                .isInstanceOf(EngineCallException.NotFound.class);
    }

    @Test
    void aResizedTtyContainerSeesItsNewSize() throws IOException {
        ContainerConfig config = ContainerConfig.of(BUSYBOX, List.of("sh", "-c", "read x; stty size"),
                Map.of(TEST_LABEL, run)).withTty(true, true, true);
        String id = engine.containers().create(run + "-resize", config).id();

        try (HijackedStream stream = engine.containers().attach(id, true, true, true)) {
            engine.containers().start(id);
            engine.containers().resize(id, 30, 90);
            stream.input().write("\n".getBytes(StandardCharsets.UTF_8));
            assertThat(new String(stream.output().readAllBytes(), StandardCharsets.UTF_8)).endsWith("30 90\r\n");
        }
    }

    private String running(String name) {
        String id = engine.containers().create(run + "-" + name, ContainerConfig.of(BUSYBOX, List.of("sleep", "1000"),
                Map.of(TEST_LABEL, run))).id();
        engine.containers().start(id);
        return id;
    }

    /** A reference the test may pull and remove afterwards: one that is not here now. */
    private String absent(String reference) {
        try {
            engine.images().inspect(reference);
            engine.images().remove(reference, false, false); // left by an earlier run of this test
        } catch (EngineCallException.NotFound e) {
            // As it should be.
        }
        pulled.add(reference);
        return reference;
    }

    private static List<ProgressMessage> pull(String reference, AuthConfig auth) {
        List<ProgressMessage> all = new ArrayList<>();
        try (EngineStream<ProgressMessage> progress = engine.images().pull(reference, auth)) {
            for (ProgressMessage m; (m = progress.next()) != null; ) {
                all.add(m);
            }
        }
        return all;
    }

    /** The pull's failure, whether the daemon refused the call or reported it in the progress. */
    private static String pullFailure(String reference, AuthConfig auth) {
        try {
            return pull(reference, auth).stream().filter(ProgressMessage::failed).findFirst()
                    .map(ProgressMessage::failure).orElseThrow(() -> new AssertionError(reference + " was pulled"));
        } catch (EngineCallException e) {
            return e.getMessage();
        }
    }

    private static List<String> frames(InputStream in) throws IOException {
        List<String> out = new ArrayList<>();
        LogFrames frames = new LogFrames(in);
        for (LogFrames.Frame f; (f = frames.next()) != null; ) {
            out.add(f.stream() + ":" + new String(f.payload(), StandardCharsets.UTF_8));
        }
        return out;
    }
}
