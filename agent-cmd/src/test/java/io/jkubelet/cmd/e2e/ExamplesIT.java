package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The shipped example configuration and static pods (what bin/demo runs) work as documented. */
class ExamplesIT extends AgentTestBase {
    static Path repo() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("config/static-pods"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("cannot find the repository's config/ directory");
        }
        return p;
    }

    @Test
    void exampleConfigAndStaticPodsRun() throws Exception {
        Path config = repo().resolve("config/kubelet-config.yaml");
        // The example's staticPodPath and ports are overridden by flags, as with the kubelet.
        startAgent("--config", config.toString());
        int hostPort = Agent.freePort();
        for (String name : new String[] {"web.yaml", "job.yaml"}) {
            String yaml = Files.readString(repo().resolve("config/static-pods").resolve(name))
                    .replace("hostPort: 18080", "hostPort: " + hostPort);
            agent.writeManifest(name, yaml);
        }
        Pod web = awaitPod("web", Duration.ofSeconds(60), AgentTestBase::running);
        assertThat(web.getStatus().getQosClass()).isEqualTo("Burstable");
        HttpClient http = HttpClient.newHttpClient();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + hostPort + "/"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                return r.statusCode() == 200 && r.body().contains("served by web-" + agent.nodeName + " on " + agent.nodeName);
            } catch (java.io.IOException e) {
                return false;
            }
        });
        Pod job = awaitPod("countdown", Duration.ofSeconds(60), p -> "Succeeded".equals(p.getStatus().getPhase()));
        assertThat(job.getStatus().getInitContainerStatuses()).singleElement()
                .satisfies(s -> assertThat(s.getState().getTerminated().getReason()).isEqualTo("Completed"));
        String log = Files.readString(agent.podLogs.resolve("default_countdown-" + agent.nodeName + "_"
                + job.getMetadata().getUid()).resolve("count/0.log"));
        assertThat(log).contains("\"log\":\"done\\n\"");
    }
}
