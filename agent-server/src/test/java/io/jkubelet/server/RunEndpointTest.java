package io.jkubelet.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodBuilder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code POST /run/...} as upstream's {@code getRun}, through the real server. */
class RunEndpointTest {

    private final FakeKubeletView view = new FakeKubeletView();
    private final AtomicReference<List<String>> lastCall = new AtomicReference<>();
    private ServedHandlers server;

    @BeforeEach
    void start() throws Exception {
        view.pods.set(List.of(new PodBuilder()
                .withNewMetadata().withName("web").withNamespace("default").withUid("uid-1").endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("busybox").endContainer().endSpec()
                .build()));
        view.run.set((ns, pod, uid, container, command) -> {
            List<String> call = new ArrayList<>(List.of(ns, pod, String.valueOf(uid), container));
            call.addAll(command);
            lastCall.set(call);
            if (!container.equals("app")) {
                throw new IllegalStateException("container not found (\"" + container + "\")");
            }
            if (command.get(0).equals("false")) {
                throw new IllegalStateException("command 'false' exited with 1: ");
            }
            if (command.get(0).equals("true")) {
                return new byte[0];
            }
            return ("out: " + String.join(" ", command) + "\nerr\n").getBytes(StandardCharsets.UTF_8);
        });
        server = ServedHandlers.start(new KubeletHandlers(view, List.of()), ServedHandlers.Group.DEBUGGING);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> post(String path) throws Exception {
        return server.post(path);
    }

    @Test
    void runsTheCommandSplitOnSpacesAndReturnsItsOutput() throws Exception {
        HttpResponse<String> response = post("/run/default/web/app?cmd=echo%20hello%20world");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body()).isEqualTo("out: echo hello world\nerr\n");
        assertThat(lastCall.get()).containsExactly("default", "web", "null", "app", "echo", "hello", "world");
    }

    @Test
    void theUidFormPassesTheUid() throws Exception {
        HttpResponse<String> response = post("/run/default/web/uid-1/app?cmd=ls");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(lastCall.get()).containsExactly("default", "web", "uid-1", "app", "ls");
    }

    @Test
    void noOutputIsABare200() throws Exception {
        HttpResponse<String> response = post("/run/default/web/app?cmd=true");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).isEmpty();
        assertThat(response.body()).isEmpty();
    }

    @Test
    void unknownPodIs404() throws Exception {
        HttpResponse<String> response = post("/run/default/nope/app?cmd=ls");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).isEqualTo("pod does not exist");
        assertThat(lastCall.get()).isNull();
    }

    @Test
    void aFailingCommandOrUnknownContainerIs500WithTheError() throws Exception {
        HttpResponse<String> failed = post("/run/default/web/app?cmd=false");
        HttpResponse<String> noContainer = post("/run/default/web/db?cmd=ls");

        assertThat(failed.statusCode()).isEqualTo(500);
        assertThat(failed.body()).isEqualTo("command 'false' exited with 1: ");
        assertThat(noContainer.statusCode()).isEqualTo(500);
        assertThat(noContainer.body()).isEqualTo("container not found (\"db\")");
    }

    @Test
    void getIsNotAllowed() throws Exception {
        HttpResponse<String> response = server.send(server.request("/run/default/web/app?cmd=ls"),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("allow")).hasValue("POST");
        assertThat(lastCall.get()).isNull();
    }

    @Test
    void checkpointFindsThePodAndContainerAndSaysTheDockerRuntimeCannotCheckpoint() throws Exception {
        assertThat(post("/checkpoint/default/nope/app").statusCode()).isEqualTo(404);
        assertThat(post("/checkpoint/default/nope/app").body()).isEqualTo("pod does not exist");
        assertThat(post("/checkpoint/default/web/other").body()).isEqualTo("container other does not exist");
        assertThat(post("/checkpoint/default/web/app?timeout=soon").body())
                .isEqualTo("cannot parse value of timeout parameter");

        HttpResponse<String> response = post("/checkpoint/default/web/app?timeout=30");
        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).isEqualTo("checkpointing of default/web/app failed (method CheckpointContainer not "
                + "implemented by the Docker runtime)");
    }
}
