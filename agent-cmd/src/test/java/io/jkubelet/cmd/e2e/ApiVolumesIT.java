package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The built agent with {@code --kubeconfig} pointing at fabric8's mock apiserver (CRUD mode): a pod's configMap and
 * secret volumes and env come from the apiserver, and a pod whose ConfigMap is missing waits and starts once it
 * exists. The pod is a static pod, as the apiserver pod source is not part of this test.
 */
class ApiVolumesIT extends AgentTestBase {
    private KubernetesMockServer server;
    private KubernetesClient client;

    @BeforeEach
    void startApiserver() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init();
        client = server.createClient();
    }

    @AfterEach
    void stopApiserver() throws Exception {
        if (agent != null) {
            // The secret volume is a tmpfs the stopped agent leaves mounted; unmount it so the test dir can go.
            agent.stop();
            Docker.removeAll(agent.nodeName);
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                String[] f = line.split(" ");
                if (f.length > 4 && f[4].startsWith(dir.toString())) {
                    new ProcessBuilder("umount", f[4]).inheritIO().start().waitFor();
                }
            }
        }
        client.close();
        server.destroy();
    }

    private Path kubeconfig() throws Exception {
        String url = server.url("/").replaceAll("/$", "");
        Path p = dir.resolve("kubeconfig");
        Files.writeString(p, """
                apiVersion: v1
                kind: Config
                clusters: [{name: mock, cluster: {server: "%s"}}]
                users: [{name: node, user: {token: node-token}}]
                contexts: [{name: mock, context: {cluster: mock, user: node, namespace: default}}]
                current-context: mock
                """.formatted(url));
        return p;
    }

    @Test
    void configMapAndSecretVolumesAndEnvComeFromTheApiserver() throws Exception {
        client.secrets().inNamespace("default").resource(new SecretBuilder().withNewMetadata().withName("db").endMetadata()
                .withData(Map.of("password", Base64.getEncoder().encodeToString("s3cret".getBytes(StandardCharsets.UTF_8))))
                .build()).create();
        startAgent("--kubeconfig", kubeconfig().toString());
        agent.writeManifest("cfg.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: cfg}
                spec:
                  containers:
                  - name: app
                    image: %s
                    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]
                    env:
                    - name: MODE
                      valueFrom: {configMapKeyRef: {name: settings, key: mode}}
                    volumeMounts:
                    - {name: config, mountPath: /etc/config}
                    - {name: creds, mountPath: /etc/creds}
                  volumes:
                  - name: config
                    configMap: {name: settings}
                  - name: creds
                    secret: {secretName: db, defaultMode: 0400}
                """.formatted(IMAGE));
        // No ConfigMap yet: the pod waits with FailedMount, it does not crash the agent.
        await().atMost(Duration.ofSeconds(60)).until(() -> agent.logText().contains(
                "Warning FailedMount: Pod default/cfg-" + agent.nodeName
                        + " MountVolume.SetUp failed for volume \"config\" : configmap \"settings\" not found"));

        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("settings")
                .endMetadata().withData(Map.of("mode", "fast", "app.properties", "lives=3")).build()).create();
        Pod pod = awaitPod("cfg", Duration.ofSeconds(90), AgentTestBase::running);
        String id = id(container(pod, "app").orElseThrow());
        assertThat(Docker.exec(id, "cat", "/etc/config/app.properties").out()).isEqualTo("lives=3");
        assertThat(Docker.exec(id, "cat", "/etc/creds/password").out()).isEqualTo("s3cret");
        assertThat(Docker.exec(id, "sh", "-c", "echo $MODE").out()).isEqualTo("fast");
        assertThat(Docker.exec(id, "sh", "-c", "touch /etc/config/x 2>&1; echo rc=$?").out()).contains("Read-only file system");
        assertThat(Docker.exec(id, "sh", "-c", "grep ' /etc/creds ' /proc/mounts").out()).startsWith("tmpfs /etc/creds tmpfs ro");
        assertThat(Docker.exec(id, "readlink", "/etc/config/..data").out()).matches("\\.\\.\\d{4}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_\\d{2}\\.\\d+");
    }
}
