package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.cmd.e2e.apiserver.Kubectl;
import io.jkubelet.cmd.e2e.cluster.ControlPlane;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The built jar joins a real v1.20.2 control plane as {@code kubeadm join} makes a kubelet do: with nothing but a
 * bootstrap token in {@code --bootstrap-kubeconfig}, it asks for its client certificate through a
 * CertificateSigningRequest, which the controller manager approves and signs, writes {@code --kubeconfig} and becomes
 * a Ready node. The control plane is this class's own, signing certificates for 7 minutes: the signer backdates
 * them by 5, so each is valid 2 minutes from its issue and due for renewal at 70-90 % of its life, within 1.3 minutes
 * of its issue (rarely at once, which only makes one more request).
 */
@Tag("docker")
@Tag("control-plane")
class TlsBootstrapIT {
    static final Duration SIGNING_DURATION = Duration.ofMinutes(7);
    /** A joining node serves once its certificate is issued: the controller manager's approval comes on top of a start. */
    static final Duration START = Duration.ofSeconds(90);
    static ControlPlane cluster;
    static Kubectl kubectl;
    static KubernetesClient client;
    final List<Agent> agents = new ArrayList<>();

    @BeforeAll
    static void startTheControlPlane() throws Exception {
        // The apiserver verifies kubelets' serving certificates against the cluster CA, as kubeadm can set it up.
        cluster = ControlPlane.startPrivate(Map.of("JK_CLUSTER_SIGNING_DURATION", SIGNING_DURATION.toMinutes() + "m",
                "JK_KUBELET_CERTIFICATE_AUTHORITY", "1"));
        kubectl = cluster.kubectl();
        client = cluster.adminClient();
    }

    @AfterAll
    static void stopTheControlPlane() {
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.stop();
        }
    }

    @AfterEach
    void removeTheNodes() throws Exception {
        for (Agent agent : agents) {
            agent.stop();
            Docker.removeAll(agent.nodeName);
            agent.removeCgroups();
            RealClusterBase.unmountUnder(agent.dir);
            if (System.getenv("JK_E2E_SHOW_LOGS") != null) {
                System.out.println(agent.logText());
            }
            ControlPlane.deleteTree(agent.dir);
        }
    }

    /** A node that has only a bootstrap kubeconfig; {@code --kubeconfig} does not exist yet. */
    Agent joiningNode(String... extraArgs) throws Exception {
        Path dir = Files.createTempDirectory("jk-bootstrap-node");
        String node = "node-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> args = new ArrayList<>(List.of("--bootstrap-kubeconfig", cluster.bootstrapKubeconfig().toString(),
                "--kubeconfig", dir.resolve("kubelet.kubeconfig").toString(), "--node-ip", "127.0.0.1",
                "--node-status-update-frequency", "2s"));
        args.addAll(List.of(extraArgs));
        Agent agent = new Agent(dir, node, args);
        agents.add(agent);
        return agent;
    }

    @Test
    void aNodeJoinsWithOnlyABootstrapTokenAndKeepsItsCertificateAcrossARestart() throws Exception {
        Agent agent = joiningNode().start(START);
        awaitReady(agent);

        // The request: the node's identity, sent by the bootstrap token's user, approved and issued by the controllers.
        CertificateSigningRequest csr = nodeCsrs(agent.nodeName).getFirst();
        assertThat(csr.getMetadata().getName()).startsWith("node-csr-");
        assertThat(csr.getSpec().getSignerName()).isEqualTo("kubernetes.io/kube-apiserver-client-kubelet");
        assertThat(csr.getSpec().getUsername()).startsWith("system:bootstrap:");
        assertThat(csr.getSpec().getUsages()).containsExactlyInAnyOrder("digital signature", "key encipherment", "client auth");
        assertThat(csr.getStatus().getConditions()).anySatisfy(c -> assertThat(c.getType()).isEqualTo("Approved"));
        assertThat(kubectl.run("get", "csr", csr.getMetadata().getName()).ok().out()).contains("Approved,Issued");

        // The files upstream leaves: the pair, the link to it, and the kubeconfig that names the link.
        Path pki = agent.dir.resolve("pki");
        Path current = pki.resolve("kubelet-client-current.pem");
        assertThat(Files.isSymbolicLink(current)).isTrue();
        assertThat(Files.readSymbolicLink(current).getFileName().toString()).matches("kubelet-client-\\d{4}(-\\d{2}){5}\\.pem");
        assertThat(Files.readString(current)).contains("BEGIN CERTIFICATE", "BEGIN EC PRIVATE KEY");
        X509Certificate cert = certificate(current);
        assertThat(cert.getSubjectX500Principal().getName()).isEqualTo("CN=system:node:" + agent.nodeName + ",O=system:nodes");
        String kubeconfig = Files.readString(agent.dir.resolve("kubelet.kubeconfig"));
        assertThat(kubeconfig).contains("client-certificate: \"" + current + "\"", "client-key: \"" + current + "\"",
                "server: \"" + cluster.url() + "\"");
        assertThat(Files.exists(pki.resolve("kubelet-client.key.tmp"))).isFalse();

        // As any node: a pod bound to it runs and its status is written back with the new identity.
        createPod(agent, "bootstrapped");
        awaitRunning("bootstrapped");
        // Events go through a client of their own, which must authenticate with the same certificate.
        await().atMost(Duration.ofSeconds(30)).until(() -> client.v1().events().inNamespace("default").list().getItems()
                .stream().anyMatch(e -> "bootstrapped".equals(e.getInvolvedObject().getName()) && "Started".equals(e.getReason())));
        assertThat(agent.logText()).doesNotContain("system:anonymous");

        // A restart finds a valid kubeconfig: no second request.
        agent.stop();
        agent.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> agent.logText().contains("exists and is valid, skipping bootstrap"));
        awaitReady(agent);
        assertThat(nodeCsrs(agent.nodeName)).hasSize(1);
    }

    /**
     * A node that rotates both of its certificates, as kubeadm's do. The two stories share the node because both wait
     * for certificates to age: the serving certificate's requests, approved by hand, and the client certificate's
     * renewal, past whose old certificate's end the node keeps reporting.
     */
    @Test
    void bothCertificatesAreRenewedWhilePodsRunAndStatusAndKubectlLogsKeepFlowing() throws Exception {
        Agent agent = joiningNode("--rotate-server-certificates", "--rotate-certificates", "--client-ca-file", cluster.dir.resolve("pki/ca.crt").toString(),
                "--anonymous-auth=false", "--authentication-token-webhook", "--authorization-mode", "Webhook").start(START);
        awaitReady(agent);
        Path clientPem = agent.dir.resolve("pki/kubelet-client-current.pem");
        Path firstClient = Files.readSymbolicLink(clientPem);
        X509Certificate firstClientCert = certificate(clientPem);
        assertThat(Duration.between(firstClientCert.getNotBefore().toInstant(), firstClientCert.getNotAfter().toInstant()))
                .isEqualTo(SIGNING_DURATION);
        RealClusterBase.createPod(kubectl, "ticker", RealClusterBase.shellPodSpec(agent.nodeName,
                "i=0; while true; do i=$((i+1)); echo tick $i; sleep 1; done"));
        awaitRunning("ticker");

        servingCertificateIsServedOnceApprovedAndRenewedUnderAFollower(agent);
        assertThat(agent.get(agent.readOnlyPort, "/metrics").orElse(""))
                .containsPattern("kubelet_certificate_manager_server_ttl_seconds \\d");

        // The client certificate: renewed at 70-90 % of its life, through a request of the node's own identity
        // (auto-approved as selfnodeclient).
        await("the client certificate renewed").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(2))
                .until(() -> !Files.readSymbolicLink(clientPem).equals(firstClient));
        assertThat(nodeCsrs(agent.nodeName)).anySatisfy(csr ->
                assertThat(csr.getSpec().getUsername()).isEqualTo("system:node:" + agent.nodeName));
        assertThat(Files.exists(agent.dir.resolve("pki").resolve(firstClient))).as("the old pair is kept").isTrue();

        // Past the first certificate's end, the node still reports: its connections moved to the new one.
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(5))
                .until(() -> Instant.now().isAfter(firstClientCert.getNotAfter().toInstant().plusSeconds(5)));
        Instant after = Instant.now();
        await("a lease renewal after the old certificate expired").atMost(Duration.ofSeconds(40)).until(() ->
                client.leases().inNamespace("kube-node-lease").withName(agent.nodeName).get().getSpec()
                        .getRenewTime().toInstant().isAfter(after));
        awaitReady(agent);
        createPod(agent, "after-rotation");
        awaitRunning("after-rotation");
        assertThat(client.pods().inNamespace("default").withName("ticker").get().getStatus()
                .getContainerStatuses().getFirst().getRestartCount()).isZero();
        assertThat(agent.logText()).contains("Certificate rotated").doesNotContain("Unauthorized");
        assertThat(agent.get(agent.readOnlyPort, "/metrics").orElse(""))
                .containsPattern("kubelet_certificate_manager_client_ttl_seconds \\d");
    }

    /**
     * Until its request is approved the node serves a self-signed certificate, which the apiserver refuses; then the
     * issued one, and after the renewal's approval the next, while a {@code kubectl logs -f} opened before keeps its
     * connection.
     */
    private void servingCertificateIsServedOnceApprovedAndRenewedUnderAFollower(Agent agent) throws Exception {
        CertificateSigningRequest pending = awaitPendingServingCsr(agent.nodeName);
        assertThat(kubectl.run("logs", "ticker", "--tail=1").err()).contains("x509");
        String request = new String(java.util.Base64.getDecoder().decode(pending.getSpec().getRequest()));
        assertThat(pending.getSpec().getUsername()).isEqualTo("system:node:" + agent.nodeName);
        assertThat(pending.getSpec().getUsages()).containsExactlyInAnyOrder("digital signature", "key encipherment", "server auth");
        assertThat(csrSubject(request)).isEqualTo("O=system:nodes,CN=system:node:" + agent.nodeName);

        kubectl.run("certificate", "approve", pending.getMetadata().getName()).ok();
        Path current = agent.dir.resolve("pki/kubelet-server-current.pem");
        await("the serving certificate stored").atMost(Duration.ofSeconds(60)).until(() -> Files.exists(current));
        X509Certificate serving = certificate(current);
        assertThat(serving.getSubjectAlternativeNames()).extracting(san -> san.get(1).toString())
                .contains(agent.nodeName, "127.0.0.1");
        await("kubectl logs through the apiserver").atMost(Duration.ofSeconds(30)).until(() ->
                kubectl.run("logs", "ticker", "--tail=1").out().startsWith("tick"));

        // A follower opened before the rotation keeps its connection; new requests get the renewed certificate.
        Process follower = new ProcessBuilder(Kubectl.binary(), "--kubeconfig", cluster.adminKubeconfig.toString(), "logs", "-f",
                "ticker", "--tail=1").redirectErrorStream(true).start();
        java.io.BufferedReader followed = new java.io.BufferedReader(new java.io.InputStreamReader(follower.getInputStream()));
        try {
            assertThat(readLine(followed)).startsWith("tick");
            Path first = Files.readSymbolicLink(current);
            CertificateSigningRequest renewal = awaitPendingServingCsr(agent.nodeName);
            kubectl.run("certificate", "approve", renewal.getMetadata().getName()).ok();
            try {
                await("the serving certificate renewed").atMost(Duration.ofSeconds(60))
                        .until(() -> !Files.readSymbolicLink(current).equals(first));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError("approved " + renewal.getMetadata().getName() + "; the node's certificate log:\n"
                        + agent.logText().lines().filter(l -> l.contains("ertificate")).collect(java.util.stream.Collectors.joining("\n")), e);
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> agent.logText().split("Serving the certificate issued").length > 2);
            // A new request is verified against the renewed certificate.
            String latest = await("kubectl logs after the rotation").atMost(Duration.ofSeconds(30))
                    .until(() -> kubectl.run("logs", "ticker", "--tail=1").out().strip(), out -> out.startsWith("tick"));
            int after = Integer.parseInt(latest.substring("tick ".length()));
            // The follower, connected before the rotation, still receives what the container writes after it.
            int seen = 0;
            while (seen < after) {
                String line = readLine(followed);
                assertThat(line).as("the follower's stream").isNotNull().startsWith("tick");
                seen = Integer.parseInt(line.substring("tick ".length()));
            }
            assertThat(follower.isAlive()).as("the follower's connection stayed open").isTrue();
        } finally {
            follower.destroy();
        }
    }

    static String readLine(java.io.BufferedReader reader) throws Exception {
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return reader.readLine();
            } catch (java.io.IOException e) {
                return "read failed: " + e.getMessage();
            }
        }).get(20, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** The newest serving-certificate request of the node that is neither approved nor denied. */
    static CertificateSigningRequest awaitPendingServingCsr(String node) {
        return await("a pending serving certificate request of " + node).atMost(Duration.ofMinutes(4))
                .pollInterval(Duration.ofSeconds(1)).until(() -> nodeCsrs(node).stream()
                        .filter(csr -> "kubernetes.io/kubelet-serving".equals(csr.getSpec().getSignerName()))
                        .filter(csr -> csr.getStatus() == null || csr.getStatus().getConditions() == null
                                || csr.getStatus().getConditions().isEmpty())
                        .max(java.util.Comparator.comparing((CertificateSigningRequest csr) ->
                                Instant.parse(csr.getMetadata().getCreationTimestamp()))),
                        java.util.Optional::isPresent).orElseThrow();
    }

    static void awaitReady(Agent agent) {
        await("node " + agent.nodeName + " Ready").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(kubectl.run("get", "node", agent.nodeName).out())
                        .containsPattern(agent.nodeName + "\\s+Ready\\s"));
    }

    static List<CertificateSigningRequest> nodeCsrs(String node) {
        return client.certificates().v1().certificateSigningRequests().list().getItems().stream()
                .filter(csr -> {
                    try {
                        String pem = new String(java.util.Base64.getDecoder().decode(csr.getSpec().getRequest()));
                        return pem.contains("CERTIFICATE REQUEST") && csrSubject(pem).contains("system:node:" + node);
                    } catch (Exception e) {
                        return false;
                    }
                }).toList();
    }

    static String csrSubject(String pem) throws Exception {
        try (var parser = new org.bouncycastle.openssl.PEMParser(new java.io.StringReader(pem))) {
            return ((org.bouncycastle.pkcs.PKCS10CertificationRequest) parser.readObject()).getSubject().toString();
        }
    }

    static X509Certificate certificate(Path pem) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(pem)));
    }

    static void createPod(Agent agent, String name) {
        RealClusterBase.createPod(kubectl, name, RealClusterBase.shellPodSpec(agent.nodeName, "trap 'exit 0' TERM; sleep 3600 & wait"));
    }

    static void awaitRunning(String name) {
        await("pod " + name + " Running").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> {
            var p = client.pods().inNamespace("default").withName(name).get();
            return p != null && p.getStatus() != null && "Running".equals(p.getStatus().getPhase());
        });
    }
}
