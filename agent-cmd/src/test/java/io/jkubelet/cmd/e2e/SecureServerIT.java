package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jkubelet.server.tls.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The built jar's secure port as an operator reaches it with curl: its self-signed certificate verifies
 * for the node's name, client certificates from --client-ca-file authenticate, anything else is 401.
 */
class SecureServerIT extends AgentTestBase {

    private SecurePortCurl.Answer curl(Path[] clientPair, String method, String path, String data) throws Exception {
        return new SecurePortCurl(agent).request(clientPair, method, path, data, Duration.ofSeconds(10));
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

        SecurePortCurl.Answer pods = curl(admin, "GET", "/pods", null);
        assertThat(pods.status()).isEqualTo(200);
        assertThat(pods.body()).contains("\"kind\":\"PodList\"");

        SecurePortCurl.Answer anonymous = curl(null, "GET", "/pods", null);
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.body()).isEqualTo("Unauthorized");
        assertThat(curl(stranger, "GET", "/healthz", null).status()).isEqualTo(401);

        SecurePortCurl.Answer configz = curl(admin, "GET", "/configz", null);
        assertThat(configz.status()).isEqualTo(200);
        assertThat(configz.body()).startsWith("{\"kubeletconfig\":{").contains("\"port\":" + agent.port);

        SecurePortCurl.Answer verbosity = curl(admin, "PUT", "/debug/flags/v", "2");
        assertThat(verbosity.body()).isEqualTo("successfully set klog.logging.verbosity to 2\n");

        // A restart keeps the pair it wrote: clients that pinned it keep working.
        agent.stop();
        agent.start();
        assertThat(Files.readString(served)).isEqualTo(certificate);
        assertThat(curl(admin, "GET", "/healthz", null).body()).isEqualTo("ok");
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
        String path = "/containerLogs/default/talker-" + agent.nodeName + "/app?tailLines=1";
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> curl(null, "GET", path, null).body(), "hello-from-log\n"::equals);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> curl(null, "GET", "/metrics", null).body(), b -> b.contains("kubelet_running_pods 1"));
    }

    @Test
    void debuggingHandlersOffAnswer405OnTheSecurePort() throws Exception {
        startAgent("--enable-debugging-handlers=false");
        // Without --client-ca-file and a config file, the flag defaults apply: anonymous and AlwaysAllow.
        SecurePortCurl.Answer run = curl(null, "POST", "/run/default/pod/c?cmd=ls", "");
        assertThat(run.status()).isEqualTo(405);
        assertThat(run.body()).isEqualTo("Debug endpoints are disabled.\n");
        assertThat(curl(null, "GET", "/pods", null).status()).isEqualTo(200);
        assertThat(curl(null, "GET", "/healthz?verbose", null).body())
                .isEqualTo("[+]ping ok\n[+]log ok\n[+]syncloop ok\n[+]pleg ok\nhealthz check passed\n");
    }

    @Test
    void aNodesFirstPairIsMadeOnceThePodSourcesHaveStarted() throws Exception {
        // An engine that takes 5 s to answer the agent's first call: the pod sources start after it, and the pair
        // (two RSA keys, well under 5 s) would have been made while the agent waited, had it not waited for them.
        try (SlowEngineSocket engine = new SlowEngineSocket(dir.resolve("docker.sock"), Path.of("/var/run/docker.sock"),
                java.time.Duration.ofSeconds(5))) {
            startAgent("--container-runtime-endpoint", "unix://" + dir.resolve("docker.sock"));

            String log = agent.logText();
            assertThat(log).contains("pod sources started", "Generated a self-signed serving certificate");
            assertThat(log.indexOf("pod sources started")).as("the pod sources start before the pair is made")
                    .isLessThan(log.indexOf("Generated a self-signed serving certificate"));
            assertThat(curl(null, "GET", "/healthz", null).body()).isEqualTo("ok");
        }
    }
}
