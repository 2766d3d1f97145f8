package io.jkubelet.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /containerLogs/...} through the real server over real CRI-format and Docker JSON log files, as
 * the authenticated port mounts it ({@code installDebugging}).
 */
class ContainerLogsEndpointTest {

    private static final Instant NOW = Instant.parse("2024-05-01T10:00:00Z");
    private static final String CURRENT_ID = "c1111";
    private static final String PREVIOUS_ID = "c0000";

    @TempDir
    Path dir;

    private final FakeKubeletView view = new FakeKubeletView();
    private ServedHandlers server;
    private Path currentLog;
    private Path previousLog;

    @BeforeEach
    void start() throws Exception {
        Path podDir = Files.createDirectories(dir.resolve("pods/default_web_uid-1/app"));
        previousLog = podDir.resolve("0.log");
        currentLog = podDir.resolve("1.log");
        Files.writeString(previousLog, """
                2024-05-01T09:00:00.000000001Z stdout F previous instance
                2024-05-01T09:00:01.5Z stderr F it crashed
                """);
        Files.writeString(currentLog, """
                2024-05-01T09:59:00.123456789Z stdout F line one
                2024-05-01T09:59:10Z stderr F line two
                2024-05-01T09:59:20.5Z stdout P part a,\s
                2024-05-01T09:59:20.6Z stdout F part b
                2024-05-01T09:59:30+02:00 stdout F line four
                2024-05-01T09:59:40Z stdout F line five
                """);
        view.containers.put(CURRENT_ID, new KubeletView.ContainerLog(currentLog.toString(), true));
        view.containers.put(PREVIOUS_ID, new KubeletView.ContainerLog(previousLog.toString(), false));
        view.pods.set(List.of(pod(true)));

        server = ServedHandlers.start(new KubeletHandlers(view, List.of(), new KubeletHandlers.DebuggingOptions(
                dir, true, Duration.ofMillis(50), Clock.fixed(NOW, ZoneOffset.UTC))));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static Pod pod(boolean restarted) {
        ContainerStatusBuilder status = new ContainerStatusBuilder()
                .withName("app")
                .withContainerID("docker://" + CURRENT_ID)
                .withRestartCount(restarted ? 1 : 0)
                .withState(new ContainerStateBuilder().withNewRunning().withStartedAt("2024-05-01T09:58:00Z").endRunning().build());
        if (restarted) {
            status.withLastState(new ContainerStateBuilder().withNewTerminated().withExitCode(1)
                    .withContainerID("docker://" + PREVIOUS_ID).endTerminated().build());
        }
        return new PodBuilder()
                .withNewMetadata().withName("web").withNamespace("default").withUid("uid-1").endMetadata()
                .withNewSpec()
                .addNewContainer().withName("app").withImage("busybox").endContainer()
                .addNewContainer().withName("sidecar").withImage("busybox").endContainer()
                .endSpec()
                .withNewStatus().withContainerStatuses(status.build()).endStatus()
                .build();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return server.get(path);
    }

    private HttpResponse<String> logs(String query) throws Exception {
        return get("/containerLogs/default/web/app" + query);
    }

    @Test
    void servesTheWholeLogChunkedWithoutContentTypeAndJoinsPartialLines() throws Exception {
        HttpResponse<String> response = logs("");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("transfer-encoding")).hasValue("chunked");
        assertThat(response.headers().firstValue("content-type")).isEmpty();
        assertThat(response.headers().firstValue("content-length")).isEmpty();
        assertThat(response.body()).isEqualTo("line one\nline two\npart a, part b\nline four\nline five\n");
    }

    @Test
    void tailLinesCountsFileLinesFromTheEnd() throws Exception {
        assertThat(logs("?tailLines=2").body()).isEqualTo("line four\nline five\n");
        assertThat(logs("?tailLines=0").body()).isEmpty();
        assertThat(logs("?tailLines=100").body()).isEqualTo("line one\nline two\npart a, part b\nline four\nline five\n");
    }

    @Test
    void legacyTailParameterWinsAndAllMeansEverything() throws Exception {
        assertThat(logs("?tail=1&tailLines=3").body()).isEqualTo("line five\n");
        assertThat(logs("?tail=all&tailLines=1").body()).isEqualTo("line one\nline two\npart a, part b\nline four\nline five\n");
    }

    @Test
    void timestampsPrefixEachEntryWithNineFractionDigits() throws Exception {
        assertThat(logs("?timestamps=true&tailLines=4").body()).isEqualTo(
                "2024-05-01T09:59:20.500000000Z part a, "
                        + "2024-05-01T09:59:20.600000000Z part b\n"
                        + "2024-05-01T09:59:30.000000000+02:00 line four\n"
                        + "2024-05-01T09:59:40.000000000Z line five\n");
    }

    @Test
    void sinceTimeAndSinceSecondsSkipOlderLines() throws Exception {
        // 09:59:30+02:00 is 07:59:30Z, older than both limits.
        assertThat(logs("?sinceTime=2024-05-01T09:59:10Z").body()).isEqualTo("line two\npart a, part b\nline five\n");
        // The server clock is 10:00:00Z: 25 s back is 09:59:35Z.
        assertThat(logs("?sinceSeconds=25").body()).isEqualTo("line five\n");
    }

    @Test
    void limitBytesCutsTheOutput() throws Exception {
        assertThat(logs("?limitBytes=12").body()).isEqualTo("line one\nlin");
        assertThat(logs("?limitBytes=9").body()).isEqualTo("line one\n");
    }

    @Test
    void previousReadsTheLastTerminatedInstance() throws Exception {
        HttpResponse<String> response = logs("?previous=true");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("previous instance\nit crashed\n");
    }

    @Test
    void previousWithoutATerminatedInstanceIs400WithUpstreamsText() throws Exception {
        view.pods.set(List.of(pod(false)));

        HttpResponse<String> response = logs("?previous=true");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("transfer-encoding")).hasValue("chunked");
        assertThat(response.body()).isEqualTo("previous terminated container \"app\" in pod \"web\" not found");
    }

    @Test
    void aContainerWithoutStatusIs400NotAvailable() throws Exception {
        HttpResponse<String> response = get("/containerLogs/default/web/sidecar");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).isEqualTo("container \"sidecar\" in pod \"web\" is not available");
    }

    @Test
    void unknownPodOrContainerIs404() throws Exception {
        HttpResponse<String> noPod = get("/containerLogs/default/nope/app");
        HttpResponse<String> otherNamespace = get("/containerLogs/kube-system/web/app");
        HttpResponse<String> noContainer = get("/containerLogs/default/web/db");

        assertThat(noPod.statusCode()).isEqualTo(404);
        assertThat(noPod.body()).isEqualTo("pod \"nope\" does not exist");
        assertThat(otherNamespace.statusCode()).isEqualTo(404);
        assertThat(otherNamespace.body()).isEqualTo("pod \"web\" does not exist");
        assertThat(noContainer.statusCode()).isEqualTo(404);
        assertThat(noContainer.body()).isEqualTo("container \"db\" not found in pod \"web\"");
    }

    @Test
    void anUndecodableQueryIs400() throws Exception {
        for (String query : List.of("?tailLines=abc", "?limitBytes=1.5", "?sinceSeconds=", "?sinceTime=yesterday", "?tail=-x")) {
            HttpResponse<String> response = logs(query);

            assertThat(response.statusCode()).as(query).isEqualTo(400);
            assertThat(response.body()).as(query).isEqualTo("{\"message\": \"Unable to decode query.\"}");
        }
    }

    @Test
    void invalidOptionsAre422() throws Exception {
        for (String query : List.of("?tailLines=-1", "?limitBytes=0", "?sinceSeconds=0",
                "?sinceSeconds=10&sinceTime=2024-05-01T09:59:10Z", "?stream=Both", "?stream=Stdout&tailLines=1")) {
            HttpResponse<String> response = logs(query);

            assertThat(response.statusCode()).as(query).isEqualTo(422);
            assertThat(response.body()).as(query).isEqualTo("{\"message\": \"Invalid request.\"}");
        }
    }

    @Test
    void aSingleStreamNeedsTheSplitStreamsGate() throws Exception {
        HttpResponse<String> response = logs("?stream=Stderr");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).isEqualTo(
                "unable to return the given log stream: \"Stderr\". Please enable PodLogsQuerySplitStreams feature gate in kubelet");
        assertThat(logs("?stream=All").body()).startsWith("line one\n");
    }

    @Test
    void readsDockerJsonLogs() throws Exception {
        Files.writeString(currentLog, """
                {"log":"from docker\\n","stream":"stdout","time":"2024-05-01T09:59:00.5Z"}
                {"log":"to stderr\\n","stream":"stderr","time":"2024-05-01T09:59:01Z"}
                """);

        assertThat(logs("").body()).isEqualTo("from docker\nto stderr\n");
        assertThat(logs("?timestamps=1&tailLines=1").body()).isEqualTo("2024-05-01T09:59:01.000000000Z to stderr\n");
    }

    @Test
    void anUnfinishedLastLineIsSentAsItIsWhenNotFollowing() throws Exception {
        Files.writeString(currentLog, "2024-05-01T09:59:00Z stdout F done\n2024-05-01T09:59:01Z stdout F half a lin");

        assertThat(logs("").body()).isEqualTo("done\nhalf a lin");
    }

    @Test
    void unparsableLinesAreSkipped() throws Exception {
        Files.writeString(currentLog, "2024-05-01T09:59:00Z stdout F good\ngarbage here\n2024-05-01T09:59:01Z stdout F also good\n");

        assertThat(logs("").body()).isEqualTo("good\nalso good\n");
    }

    @Test
    void anUnknownFormatIsReportedInTheBody() throws Exception {
        Files.writeString(currentLog, "not a log line\n");

        assertThat(logs("").body()).isEqualTo("failed to get parse function: unsupported log format: \"not a log line\\n\"");
    }

    @Test
    void followsThroughTheSymlinkAPodLogPathIs() throws Exception {
        Path link = dir.resolve("pods/default_web_uid-1/app/link.log");
        Files.createSymbolicLink(link, currentLog);
        view.containers.put(CURRENT_ID, new KubeletView.ContainerLog(link.toString(), false));

        assertThat(logs("?tailLines=1").body()).isEqualTo("line five\n");
    }

    @Test
    void aMissingLogFileIsReportedInTheBody() throws Exception {
        view.containers.put(CURRENT_ID, new KubeletView.ContainerLog(dir.resolve("gone.log").toString(), true));

        HttpResponse<String> response = logs("");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).startsWith("failed to try resolving symlinks in path \"" + dir.resolve("gone.log") + "\"");
    }

    @Test
    void aContainerTheRuntimeDoesNotKnowIsReportedInTheBody() throws Exception {
        view.containers.remove(CURRENT_ID);

        assertThat(logs("").body()).isEqualTo("unable to retrieve container logs for docker://" + CURRENT_ID);
    }

    @Test
    @Timeout(60)
    void followSendsAppendedLinesAndEndsWhenTheContainerStops() throws Exception {
        HttpResponse<InputStream> response = server.send(server.request("/containerLogs/default/web/app?follow=true&tailLines=1"),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        try (BufferedReader body = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            assertThat(body.readLine()).isEqualTo("line five");

            append("2024-05-01T10:00:01Z stdout F appended while following\n");
            assertThat(body.readLine()).isEqualTo("appended while following");

            // Half a line is not sent until its end arrives.
            append("2024-05-01T10:00:02Z stdout F split ");
            append("across writes\n");
            assertThat(body.readLine()).isEqualTo("split across writes");

            // The container stops after one last line: the stream sends it and ends.
            append("2024-05-01T10:00:03Z stderr F last words\n");
            view.containers.put(CURRENT_ID, new KubeletView.ContainerLog(currentLog.toString(), false));
            assertThat(body.readLine()).isEqualTo("last words");
            assertThat(body.readLine()).as("the stream ends once the container stopped").isNull();
        }
    }

    @Test
    @Timeout(60)
    void followReopensALogFileReplacedByRotation() throws Exception {
        HttpResponse<InputStream> response = server.send(server.request("/containerLogs/default/web/app?follow=1&tailLines=1"),
                HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader body = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            assertThat(body.readLine()).isEqualTo("line five");

            // The runtime renames the full file away and starts a new one at the same path.
            Files.move(currentLog, currentLog.resolveSibling("1.log.20240501-100000"));
            Files.writeString(currentLog, "2024-05-01T10:00:05Z stdout F after rotation\n");
            assertThat(body.readLine()).isEqualTo("after rotation");

            view.containers.put(CURRENT_ID, new KubeletView.ContainerLog(currentLog.toString(), false));
            assertThat(body.readLine()).isNull();
        }
    }

    @Test
    @Timeout(60)
    void followOfAStoppedContainerSendsTheLogAndEnds() throws Exception {
        view.containers.put(CURRENT_ID, new KubeletView.ContainerLog(currentLog.toString(), false));

        assertThat(logs("?follow=true&tailLines=2").body()).isEqualTo("line four\nline five\n");
    }

    @Test
    void tailOfABigLogReadsItsEnd() throws Exception {
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            big.append("2024-05-01T09:00:00Z stdout F entry ").append(i).append('\n');
        }
        Files.writeString(currentLog, big);

        assertThat(logs("?tailLines=3").body()).isEqualTo("entry 99997\nentry 99998\nentry 99999\n");
    }

    @Test
    void onlyGetIsAllowed() throws Exception {
        HttpResponse<String> response = server.send(server.request("/containerLogs/default/web/app")
                        .POST(HttpRequest.BodyPublishers.noBody()),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(405);
    }

    private void append(String text) throws IOException {
        Files.writeString(currentLog, text, StandardOpenOption.APPEND);
    }
}
