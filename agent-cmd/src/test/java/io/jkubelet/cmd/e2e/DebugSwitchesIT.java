package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The built jar's {@code enableProfilingHandler} and {@code enableDebugFlagsHandler}: on by default, and when a
 * configuration file turns them off, {@code /debug/pprof/} and {@code /debug/flags/v} answer upstream's 405 on the
 * secure port. The read-only port serves neither either way.
 */
class DebugSwitchesIT extends AgentTestBase {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private SecurePortCurl.Answer secure(String method, String path, String data) throws Exception {
        return new SecurePortCurl(agent).request(null, method, path, data, Duration.ofSeconds(10));
    }

    private HttpResponse<String> readOnly(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + agent.readOnlyPort + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void profilingAndDebugFlagsAreServedByDefault() throws Exception {
        startAgent();
        SecurePortCurl.Answer threads = secure("GET", "/debug/pprof/goroutine?debug=2", null);
        assertThat(threads.status()).isEqualTo(200);
        assertThat(threads.body()).contains("\tat ");
        assertThat(secure("PUT", "/debug/flags/v", "3").body()).isEqualTo("successfully set klog.logging.verbosity to 3\n");

        assertThat(readOnly("/debug/pprof/goroutine").statusCode()).isEqualTo(405);
        assertThat(readOnly("/debug/flags/v").statusCode()).isEqualTo(404);
    }

    @Test
    void switchedOffTheyAnswer405WithUpstreamsMessages() throws Exception {
        Path config = Files.writeString(dir.resolve("kubelet.yaml"), """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                authentication: {anonymous: {enabled: true}, webhook: {enabled: false}}
                authorization: {mode: AlwaysAllow}
                enableProfilingHandler: false
                enableDebugFlagsHandler: false
                """);
        startAgent("--config", config.toString());

        SecurePortCurl.Answer pprof = secure("GET", "/debug/pprof/goroutine?debug=2", null);
        assertThat(pprof.status()).isEqualTo(405);
        assertThat(pprof.body()).isEqualTo("profiling endpoint is disabled.\n");
        SecurePortCurl.Answer flags = secure("PUT", "/debug/flags/v", "3");
        assertThat(flags.status()).isEqualTo(405);
        assertThat(flags.body()).isEqualTo("flags endpoint is disabled.\n");
        assertThat(secure("GET", "/configz", null).status()).as("other debugging handlers stay").isEqualTo(200);

        HttpResponse<String> readOnlyPprof = readOnly("/debug/pprof/");
        assertThat(readOnlyPprof.statusCode()).isEqualTo(405);
        assertThat(readOnlyPprof.body()).isEqualTo("Debug endpoints are disabled.\n");
        assertThat(readOnly("/debug/flags/v").statusCode()).isEqualTo(404);
    }
}
