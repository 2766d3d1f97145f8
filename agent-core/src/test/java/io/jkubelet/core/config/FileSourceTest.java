package io.jkubelet.core.config;

import static io.jkubelet.core.config.Manifests.NODE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FileSourceTest {

    /** Long enough that only the watch can explain a prompt reaction. */
    private static final Duration NEVER = Duration.ofHours(1);
    /** Generous: the machine may be busy; the watch normally reacts within a second. */
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @TempDir
    Path tmp;
    private Path manifests;
    private final List<PodUpdate> sent = new CopyOnWriteArrayList<>();
    private LogCapture logs;
    private FileSource source;

    @BeforeEach
    void setUp() {
        manifests = tmp.resolve("manifests");
        logs = new LogCapture(FileSource.class);
    }

    @AfterEach
    void tearDown() {
        if (source != null) {
            source.close();
        }
        logs.close();
    }

    private FileSource source(Path path) {
        source = new FileSource(path, NODE, NEVER, sent::add);
        return source;
    }

    private void write(String name, String content) throws IOException {
        Files.createDirectories(manifests);
        // Write then rename, as configuration tools do, so a reader never sees half a file.
        Path temp = manifests.resolve("." + name + ".tmp");
        Files.writeString(temp, content);
        Files.move(temp, manifests.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private List<String> lastSetNames() {
        assertThat(sent).isNotEmpty();
        PodUpdate last = sent.getLast();
        assertThat(last.op()).isEqualTo(PodOperation.SET);
        assertThat(last.source()).isEqualTo(PodSources.FILE);
        return last.pods().stream().map(p -> p.getMetadata().getName()).toList();
    }

    private List<String> warningsAbout(String file) {
        return logs.warnings().stream().filter(m -> m.contains(manifests.resolve(file).toString())).toList();
    }

    @Test
    void readsEveryManifestOfTheDirectoryInNameOrder() throws IOException {
        write("b.yaml", Manifests.pod("bravo", "busybox"));
        write("a.json", Manifests.WEB_JSON);
        write(".hidden.yaml", Manifests.pod("hidden", "busybox"));
        Files.createDirectories(manifests.resolve("sub"));
        Files.writeString(manifests.resolve("sub/c.yaml"), Manifests.pod("nested", "busybox"));

        source(manifests).listConfig();

        assertThat(lastSetNames()).containsExactly("web-node-1", "bravo-node-1");
        assertThat(sent.getLast().pods()).allSatisfy(p -> {
            assertThat(p.getSpec().getNodeName()).isEqualTo(NODE);
            assertThat(p.getMetadata().getAnnotations()).containsKey(ConfigAnnotations.CONFIG_HASH);
        });
        assertThat(warningsAbout("sub")).singleElement().asString().contains("not recursing");
    }

    @Test
    void theSameContentKeepsItsUidAndAnotherPathGetsAnother() throws IOException {
        write("a.yaml", Manifests.WEB_YAML);
        write("b.yaml", Manifests.WEB_YAML.replace("name: web", "name: web2"));
        FileSource files = source(manifests);
        files.listConfig();
        String uid = sent.getLast().pods().getFirst().getMetadata().getUid();

        FileSource again = new FileSource(manifests, NODE, NEVER, sent::add);
        again.listConfig();

        assertThat(sent.getLast().pods().getFirst().getMetadata().getUid()).isEqualTo(uid);
        assertThat(sent.getLast().pods().get(1).getMetadata().getUid()).isNotEqualTo(uid);
    }

    @Test
    void sendsOnlyWhenThePodsChange() throws IOException {
        write("a.yaml", Manifests.WEB_YAML);
        FileSource files = source(manifests);

        files.listConfig();
        files.listConfig();
        assertThat(sent).hasSize(1);

        write("a.yaml", Manifests.WEB_YAML.replace("nginx:1.25", "nginx:1.26"));
        files.listConfig();
        assertThat(sent).hasSize(2);
        assertThat(sent.getLast().pods().getFirst().getSpec().getContainers().getFirst().getImage())
                .isEqualTo("nginx:1.26");
    }

    @Test
    void aMissingPathIsAnEmptySource() {
        source(tmp.resolve("nowhere")).listConfig();

        assertThat(sent).singleElement().satisfies(u -> assertThat(u.pods()).isEmpty());
        assertThat(logs.warnings()).singleElement().asString().contains("does not exist");
    }

    @Test
    void anEmptyDirectoryIsAnEmptySource() throws IOException {
        Files.createDirectories(manifests);

        source(manifests).listConfig();

        assertThat(sent).singleElement().satisfies(u -> assertThat(u.pods()).isEmpty());
    }

    static Stream<Arguments> badManifests() {
        return Stream.of(
                Arguments.of("not YAML", "apiVersion: v1\nkind: Pod\nmetadata: {name: [\n", "invalid YAML"),
                Arguments.of("not a Pod", "apiVersion: v1\nkind: Service\nmetadata: {name: svc}\n",
                        "couldn't parse as pod (expected kind Pod in apiVersion v1, got kind Service"),
                Arguments.of("no name", Manifests.pod("x", "busybox").replace("  name: x\n", "  labels: {a: b}\n"),
                        "metadata.name: Required value: name is needed for the pod"),
                Arguments.of("no containers", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {containers: []}\n",
                        "spec.containers: Required value"),
                Arguments.of("duplicate container names", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n"
                        + "spec: {containers: [{name: c, image: busybox}, {name: c, image: busybox}]}\n",
                        "spec.containers[1].name: Duplicate value: \"c\""),
                Arguments.of("invalid image reference", Manifests.pod("x", "Busy Box"),
                        "spec.containers[0].image: Invalid value: \"Busy Box\""),
                Arguments.of("invalid quantity", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n"
                        + "spec: {containers: [{name: c, image: busybox, resources: {limits: {memory: lots}}}]}\n",
                        "spec.containers[0].resources.limits[memory]: Invalid value: \"lots\": quantities must match"),
                Arguments.of("a null container", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {containers: [null]}\n",
                        "the pod cannot be defaulted and validated: java.lang.NullPointerException"),
                Arguments.of("larger than 1.5 MiB", withAnnotations(120_000),
                        "bytes, larger than the 1.5 MiB a manifest may have"),
                Arguments.of("annotations over 256 KiB", withAnnotations(80_000),
                        "metadata.annotations: Too long: must have at most 262144 bytes"),
                Arguments.of("nested too deep (YAML)", Manifests.pod("x", "busybox") + "deep: " + "[".repeat(100)
                        + "]".repeat(100) + "\n", "invalid YAML: Nesting Depth exceeded max 64"),
                Arguments.of("nested too deep (JSON)", "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"deep\": "
                        + "[".repeat(200) + "]".repeat(200) + "}", "invalid JSON: Document nesting depth (65) exceeds"));
    }

    /** A pod with this many annotations of about 17 bytes each (a file of about 19 bytes per annotation). */
    private static String withAnnotations(int count) {
        StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  annotations:\n");
        for (int i = 0; i < count; i++) {
            yaml.append("    a").append(i).append(": v").append(i).append('\n');
        }
        return yaml.append("spec: {containers: [{name: c, image: busybox}]}\n").toString();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badManifests")
    void aBadManifestIsSkippedOnceLoggedAndPickedUpWhenFixed(String what, String bad, String reason) throws IOException {
        write("good.yaml", Manifests.WEB_YAML);
        write("bad.yaml", bad);
        FileSource files = source(manifests);

        files.listConfig();
        files.listConfig();

        assertThat(lastSetNames()).containsExactly("web-node-1");
        assertThat(sent).as("the second read found nothing new").hasSize(1);
        assertThat(warningsAbout("bad.yaml")).singleElement().asString()
                .startsWith("Could not process static pod manifest: " + manifests.resolve("bad.yaml") + ": ")
                .contains(reason);

        write("bad.yaml", Manifests.pod("fixed", "busybox"));
        files.listConfig();

        assertThat(lastSetNames()).containsExactly("fixed-node-1", "web-node-1");
        assertThat(warningsAbout("bad.yaml")).hasSize(1);
    }

    @Test
    void aBadManifestIsLoggedAgainWhenItsContentChanges() throws IOException {
        write("bad.yaml", "kind: Pod\n");
        FileSource files = source(manifests);
        files.listConfig();
        write("bad.yaml", "apiVersion: v1\n");
        files.listConfig();
        files.listConfig();

        assertThat(warningsAbout("bad.yaml")).hasSize(2);
    }

    @Test
    void aBadManifestMakesItsPodGoAway() throws IOException {
        write("a.yaml", Manifests.WEB_YAML);
        FileSource files = source(manifests);
        files.listConfig();

        write("a.yaml", "not: [a pod");
        files.listConfig();

        assertThat(lastSetNames()).isEmpty();
    }

    @Test
    void twoManifestsWithOnePodNameRunOnlyTheFirst() throws IOException {
        PodConfig config = new PodConfig();
        write("a.yaml", Manifests.pod("web", "busybox:1"));
        write("b.yaml", Manifests.pod("web", "busybox:2"));
        try (LogCapture merges = new LogCapture(PodStorage.class)) {
            new FileSource(manifests, NODE, NEVER, config.channel(PodSources.FILE)).listConfig();

            List<PodUpdate> updates = new java.util.ArrayList<>();
            config.updates().drainTo(updates);
            assertThat(updates).singleElement().satisfies(u -> assertThat(u.pods()).singleElement()
                    .satisfies(p -> assertThat(p.getSpec().getContainers().getFirst().getImage()).isEqualTo("busybox:1")));
            assertThat(merges.warnings()).singleElement().asString()
                    .contains("duplicate pod name").contains("web-node-1_default");
        }
    }

    @Test
    void aSingleFileIsASource() throws IOException {
        write("web.yaml", Manifests.WEB_YAML);
        FileSource file = source(manifests.resolve("web.yaml"));

        file.listConfig();
        assertThat(lastSetNames()).containsExactly("web-node-1");

        // A single bad manifest keeps what runs, as upstream does.
        write("web.yaml", "apiVersion: v1\nkind: Pod\n");
        file.listConfig();
        assertThat(sent).hasSize(1);
        assertThat(warningsAbout("web.yaml")).singleElement().asString().contains("name is needed");

        Files.delete(manifests.resolve("web.yaml"));
        file.listConfig();
        assertThat(lastSetNames()).isEmpty();
    }

    @Test
    void reactsToCreateModifyAndDeleteWithoutWaitingForThePeriod() throws IOException {
        Files.createDirectories(manifests);
        source(manifests).start();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(lastSetNames()).isEmpty());

        write("web.yaml", Manifests.WEB_YAML);
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(lastSetNames()).containsExactly("web-node-1"));

        Files.writeString(manifests.resolve("web.yaml"), Manifests.WEB_YAML.replace("nginx:1.25", "nginx:1.27"));
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(sent.getLast().pods()).singleElement()
                .satisfies(p -> assertThat(p.getSpec().getContainers().getFirst().getImage()).isEqualTo("nginx:1.27")));

        Files.delete(manifests.resolve("web.yaml"));
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(lastSetNames()).isEmpty());
    }

    @Test
    void picksUpADirectoryCreatedAfterStart() throws IOException {
        source(manifests).start();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(lastSetNames()).isEmpty());

        write("web.yaml", Manifests.WEB_YAML);

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(lastSetNames()).containsExactly("web-node-1"));
    }

    @Test
    void followsADirectoryThatIsDeletedAndCreatedAgain() throws IOException {
        write("web.yaml", Manifests.WEB_YAML);
        source(manifests).start();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(lastSetNames()).containsExactly("web-node-1"));

        Files.delete(manifests.resolve("web.yaml"));
        Files.delete(manifests);
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(lastSetNames()).isEmpty());

        write("other.yaml", Manifests.pod("other", "busybox"));
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(lastSetNames()).containsExactly("other-node-1"));
    }

    @Test
    void aBurstOfChangesEndsInTheFinalState() throws IOException {
        Files.createDirectories(manifests);
        source(manifests).start();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(lastSetNames()).isEmpty());

        for (int i = 0; i < 20; i++) {
            write("pod-" + i + ".yaml", Manifests.pod("pod-" + i, "busybox"));
        }

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(lastSetNames()).hasSize(20));
    }

    @Test
    void closeStopsTheSource() throws IOException {
        Files.createDirectories(manifests);
        FileSource files = source(manifests);
        files.start();
        await().atMost(DEADLINE).until(() -> !sent.isEmpty());

        files.close();
        files.close();
        int before = sent.size();
        files.listConfig();

        assertThat(sent).hasSize(before);
    }

    @Test
    void podsSentAreFreshObjects() throws IOException {
        write("a.yaml", Manifests.WEB_YAML);
        FileSource files = source(manifests);
        files.listConfig();
        Pod first = sent.getFirst().pods().getFirst();
        first.getMetadata().setName("mutated");

        write("b.yaml", Manifests.pod("b", "busybox"));
        files.listConfig();

        assertThat(lastSetNames()).containsExactly("web-node-1", "b-node-1");
    }
}
