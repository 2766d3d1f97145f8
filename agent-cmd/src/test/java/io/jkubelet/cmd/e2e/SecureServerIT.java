package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jkubelet.server.tls.TestPki;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The built jar's secure port as an operator reaches it with curl: its self-signed certificate verifies
 * for the node's name, client certificates from --client-ca-file authenticate, anything else is 401.
 */
class SecureServerIT extends AgentTestBase {

    private record Curl(int status, String body) {}

    private Curl curl(Path caCert, Path[] clientPair, String method, String path, String data) throws Exception {
        String host = agent.nodeName;
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10", "-o", "-", "-w", "\n%{http_code}",
                "--cacert", caCert.toString(), "--resolve", host + ":" + agent.port + ":127.0.0.1", "-X", method));
        if (clientPair != null) {
            cmd.addAll(List.of("--cert", clientPair[0].toString(), "--key", clientPair[1].toString()));
        }
        if (data != null) {
            cmd.addAll(List.of("--data-binary", data));
        }
        cmd.add("https://" + host + ":" + agent.port + path);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("curl: %s", out).isZero();
        int nl = out.lastIndexOf('\n');
        return new Curl(Integer.parseInt(out.substring(nl + 1).trim()), out.substring(0, nl));
    }

    @Test
    void curlVerifiesTheSelfSignedCertificateAndClientCertificatesAuthenticate() throws Exception {
        TestPki clients = TestPki.create("e2e-clients");
        Path caFile = clients.writeCa(Files.createDirectories(dir.resolve("client-pki")).resolve("ca.crt"));
        Path[] admin = clients.client("CN=admin,O=system:masters").writePem(dir.resolve("client-pki"), "admin");
        Path[] stranger = TestPki.create("other").client("CN=stranger").writePem(dir.resolve("client-pki"), "stranger");
        startAgent("--client-ca-file", caFile.toString(), "--anonymous-auth=false");

        Path served = dir.resolve("pki/kubelet.crt");
        assertThat(served).exists();
        assertThat(dir.resolve("pki/kubelet.key")).exists();
        String certificate = Files.readString(served);

        Curl pods = curl(served, admin, "GET", "/pods", null);
        assertThat(pods.status()).isEqualTo(200);
        assertThat(pods.body()).contains("\"kind\":\"PodList\"");

        Curl anonymous = curl(served, null, "GET", "/pods", null);
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.body()).isEqualTo("Unauthorized");
        assertThat(curl(served, stranger, "GET", "/healthz", null).status()).isEqualTo(401);

        Curl configz = curl(served, admin, "GET", "/configz", null);
        assertThat(configz.status()).isEqualTo(200);
        assertThat(configz.body()).startsWith("{\"kubeletconfig\":{").contains("\"port\":" + agent.port);

        Curl verbosity = curl(served, admin, "PUT", "/debug/flags/v", "2");
        assertThat(verbosity.body()).isEqualTo("successfully set klog.logging.verbosity to 2\n");

        // A restart keeps the pair it wrote: clients that pinned it keep working.
        agent.stop();
        agent.start();
        assertThat(Files.readString(served)).isEqualTo(certificate);
        assertThat(curl(served, admin, "GET", "/healthz", null).body()).isEqualTo("ok");
    }

    @Test
    void containerLogsAndMetricsAreServedOnTheSecurePort() throws Exception {
        startAgent();
        agent.writeManifest("talker.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: talker}
                spec:
                  containers:
                  - name: app
                    image: %s
                    command: ["sh", "-c", "echo first; echo hello-from-log; sleep 3600"]
                """.formatted(IMAGE));
        awaitPod("talker", java.time.Duration.ofSeconds(60), AgentTestBase::running);
        Path served = dir.resolve("pki/kubelet.crt");
        String path = "/containerLogs/default/talker-" + agent.nodeName + "/app?tailLines=1";
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> curl(served, null, "GET", path, null).body(), "hello-from-log\n"::equals);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> curl(served, null, "GET", "/metrics", null).body(), b -> b.contains("kubelet_running_pods 1"));
    }

    @Test
    void debuggingHandlersOffAnswer405OnTheSecurePort() throws Exception {
        startAgent("--enable-debugging-handlers=false");
        Path served = dir.resolve("pki/kubelet.crt");
        // Without --client-ca-file and a config file, the flag defaults apply: anonymous and AlwaysAllow.
        Curl run = curl(served, null, "POST", "/run/default/pod/c?cmd=ls", "");
        assertThat(run.status()).isEqualTo(405);
        assertThat(run.body()).isEqualTo("Debug endpoints are disabled.\n");
        assertThat(curl(served, null, "GET", "/pods", null).status()).isEqualTo(200);
        assertThat(curl(served, null, "GET", "/healthz?verbose", null).body())
                .isEqualTo("[+]ping ok\n[+]log ok\n[+]syncloop ok\n[+]pleg ok\nhealthz check passed\n");
    }
}
