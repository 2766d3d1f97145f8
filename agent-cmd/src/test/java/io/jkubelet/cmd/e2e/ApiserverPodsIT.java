package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a pod takes from a real apiserver on this node: ConfigMap, Secret, downward API and projected volumes, its
 * service account token, the service environment variables, downward API limits defaulted to the node's
 * allocatable, and its active deadline.
 */
class ApiserverPodsIT extends RealClusterBase {

    /**
     * A ConfigMap's update reaches its volumes at the pod's next periodic sync, as upstream's: every
     * {@code --sync-frequency} (1 minute by default, with up to half of it as jitter), 10 seconds here.
     */
    static String[] agentArgs() {
        return new String[] {"--sync-frequency", "10s"};
    }

    static Map<String, String> envOf(String pod) {
        return exec(pod, "env").lines().filter(l -> l.contains("="))
                .collect(Collectors.toMap(l -> l.substring(0, l.indexOf('=')), l -> l.substring(l.indexOf('=') + 1), (a, b) -> b));
    }

    @Test
    void volumesAndTheServiceAccountTokenComeFromTheApiserver() throws Exception {
        kubectl.run("create", "configmap", "settings", "--from-literal=mode=fast").ok();
        kubectl.run("create", "secret", "generic", "creds", "--from-literal=password=s3cret").ok();
        createPod("volumes", """
                  nodeName: %s
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sleep", "3600"]
                    env:
                    - {name: MODE, valueFrom: {configMapKeyRef: {name: settings, key: mode}}}
                    volumeMounts:
                    - {name: settings, mountPath: /etc/settings}
                    - {name: creds, mountPath: /etc/creds}
                    - {name: info, mountPath: /etc/info}
                    - {name: all, mountPath: /etc/all}
                  volumes:
                  - {name: settings, configMap: {name: settings}}
                  - {name: creds, secret: {secretName: creds}}
                  - name: info
                    downwardAPI: {items: [{path: name, fieldRef: {fieldPath: metadata.name}}]}
                  - name: all
                    projected:
                      sources:
                      - configMap: {name: settings}
                      - serviceAccountToken: {path: token, expirationSeconds: 3600, audience: jkubelet-test}
                """.formatted(agent.nodeName, IMAGE));
        awaitRunning("volumes");
        assertThat(exec("volumes", "cat /etc/settings/mode; echo; cat /etc/creds/password; echo; cat /etc/info/name; echo; echo $MODE"))
                .isEqualTo("fast\ns3cret\nvolumes\nfast\n");
        // The service account admission plugin mounted the default account's token; the kubelet fetched it as the
        // node (the Node authorizer allows a node the secrets of its own pods only).
        String token = exec("volumes", "cat /var/run/secrets/kubernetes.io/serviceaccount/token");
        assertThat(exec("volumes", "cat /var/run/secrets/kubernetes.io/serviceaccount/namespace")).isEqualTo("default");
        assertThat(review(token, null).getStatus().getUser().getUsername()).isEqualTo("system:serviceaccount:default:default");
        // The projected token was asked for with TokenRequest, bound to the pod and its audience.
        String projected = exec("volumes", "cat /etc/all/token");
        TokenReview bound = review(projected, "jkubelet-test");
        assertThat(bound.getStatus().getAuthenticated()).isTrue();
        assertThat(bound.getStatus().getUser().getExtra()).containsEntry("authentication.kubernetes.io/pod-name",
                java.util.List.of("volumes"));
        assertThat(exec("volumes", "cat /etc/all/mode")).isEqualTo("fast");
        // An update of the ConfigMap reaches the volume.
        kubectl.run("patch", "configmap", "settings", "-p", "{\"data\":{\"mode\":\"slow\"}}").ok();
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofSeconds(1)).until(() ->
                exec("volumes", "cat /etc/settings/mode").equals("slow"));
    }

    /**
     * The pod's {@code fsGroup} on its volumes, as its non-root container sees them (upstream's e2e "EmptyDir volumes when
     * FSGroup is specified", "ConfigMap should be consumable from pods in volume with defaultMode and fsGroup set",
     * "ServiceAccounts should set ownership and permission when RunAsUser or FsGroup is present"): the emptyDirs setgid
     * and the group's (a tmpfs's root also sticky), a new file the group's, a subPath made as its volume, a 0400
     * configMap file readable through the group, the projected token the user's and the group's only.
     */
    @Test
    void aPodsFsGroupOwnsItsEmptyDirConfigMapAndTokenVolumes() {
        kubectl.run("create", "configmap", "owned", "--from-literal=key=value").ok();
        createPod("owned", """
                  nodeName: %s
                  securityContext: {runAsUser: 1000, fsGroup: 1234}
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sleep", "3600"]
                    volumeMounts:
                    - {name: cache, mountPath: /cache}
                    - {name: cache, mountPath: /sub, subPath: made/here}
                    - {name: shm, mountPath: /shm}
                    - {name: cfg, mountPath: /etc/cfg}
                    - {name: token, mountPath: /etc/token}
                  volumes:
                  - {name: cache, emptyDir: {}}
                  - {name: shm, emptyDir: {medium: Memory}}
                  - {name: cfg, configMap: {name: owned, defaultMode: 256}}
                  - name: token
                    projected: {sources: [{serviceAccountToken: {path: token, expirationSeconds: 3600}}]}
                """.formatted(agent.nodeName, IMAGE));
        awaitRunning("owned");
        assertThat(exec("owned", "id -G").trim().split(" ")).contains("1234");
        assertThat(exec("owned", "touch /cache/new; stat -L -c '%n %u %g %a' /cache /cache/new /sub /shm /etc/cfg/key "
                + "/etc/token/token")).isEqualTo("""
                /cache 0 1234 2777
                /cache/new 1000 1234 644
                /sub 0 1234 2777
                /shm 0 1234 3777
                /etc/cfg/key 0 1234 440
                /etc/token/token 1000 1234 640
                """);
        assertThat(exec("owned", "cat /etc/cfg/key")).isEqualTo("value");
    }

    static TokenReview review(String token, String audience) {
        var spec = new TokenReviewBuilder().withNewSpec().withToken(token);
        if (audience != null) {
            spec.withAudiences(audience);
        }
        return client.authentication().v1().tokenReviews().create(spec.endSpec().build());
    }

    @Test
    void aPodWhoseConfigMapIsMissingStartsOnceItExists() {
        createPod("waits", """
                  nodeName: %s
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sh", "-c", "cat /etc/late/key; echo; sleep 3600"]
                    volumeMounts: [{name: late, mountPath: /etc/late}]
                  volumes: [{name: late, configMap: {name: late}}]
                """.formatted(agent.nodeName, IMAGE));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(kubectl.run("get", "events", "--field-selector", "involvedObject.name=waits").out())
                        .contains("FailedMount").contains("configmap \"late\" not found"));
        assertThat(phase("waits")).isEqualTo("Pending");
        kubectl.run("create", "configmap", "late", "--from-literal=key=there").ok();
        awaitRunning("waits");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(kubectl.run("logs", "waits").out()).isEqualTo("there\n"));
    }

    @Test
    void containersGetTheServiceVariablesOfTheirNamespaceAndTheApiserversAlways() {
        kubectl.runWithInput("""
                apiVersion: v1
                kind: Service
                metadata: {name: web-front}
                spec:
                  ports:
                  - {name: http, port: 80, targetPort: 8080}
                  - {name: metrics, port: 9090, protocol: TCP}
                """, "create", "-f", "-").ok();
        String frontIp = client.services().inNamespace("default").withName("web-front").get().getSpec().getClusterIP();
        createShellPod("linked", "sleep 3600");
        awaitRunning("linked");
        Map<String, String> env = envOf("linked");
        // What every in-cluster client reads to find the apiserver.
        assertThat(env).containsEntry("KUBERNETES_SERVICE_HOST", "10.0.0.1").containsEntry("KUBERNETES_SERVICE_PORT", "443")
                .containsEntry("KUBERNETES_SERVICE_PORT_HTTPS", "443").containsEntry("KUBERNETES_PORT", "tcp://10.0.0.1:443")
                .containsEntry("KUBERNETES_PORT_443_TCP", "tcp://10.0.0.1:443").containsEntry("KUBERNETES_PORT_443_TCP_ADDR", "10.0.0.1")
                .containsEntry("KUBERNETES_PORT_443_TCP_PORT", "443").containsEntry("KUBERNETES_PORT_443_TCP_PROTO", "tcp");
        assertThat(env).containsEntry("WEB_FRONT_SERVICE_HOST", frontIp).containsEntry("WEB_FRONT_SERVICE_PORT", "80")
                .containsEntry("WEB_FRONT_SERVICE_PORT_HTTP", "80").containsEntry("WEB_FRONT_SERVICE_PORT_METRICS", "9090")
                .containsEntry("WEB_FRONT_PORT", "tcp://" + frontIp + ":80")
                .containsEntry("WEB_FRONT_PORT_9090_TCP", "tcp://" + frontIp + ":9090");
        // enableServiceLinks: false keeps only the apiserver's.
        createPod("unlinked", """
                  nodeName: %s
                  enableServiceLinks: false
                  containers:
                  - {name: app, image: %s, imagePullPolicy: Never, command: ["sleep", "3600"]}
                """.formatted(agent.nodeName, IMAGE));
        awaitRunning("unlinked");
        Map<String, String> unlinked = envOf("unlinked");
        assertThat(unlinked).containsEntry("KUBERNETES_SERVICE_HOST", "10.0.0.1");
        assertThat(unlinked.keySet()).noneMatch(k -> k.startsWith("WEB_FRONT_"));
    }

    @Test
    void downwardApiLimitsAContainerDoesNotSetAreTheNodesAllocatable() {
        createPod("limits", """
                  nodeName: %s
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sleep", "3600"]
                    env:
                    - {name: CPU_LIMIT, valueFrom: {resourceFieldRef: {resource: limits.cpu}}}
                    - {name: MEMORY_LIMIT, valueFrom: {resourceFieldRef: {resource: limits.memory}}}
                    volumeMounts: [{name: info, mountPath: /etc/info}]
                  volumes:
                  - name: info
                    downwardAPI:
                      items:
                      - {path: cpu, resourceFieldRef: {containerName: app, resource: limits.cpu, divisor: 1m}}
                      - {path: memory, resourceFieldRef: {containerName: app, resource: limits.memory}}
                """.formatted(agent.nodeName, IMAGE));
        awaitRunning("limits");
        Map<String, Quantity> allocatable = client.nodes().withName(agent.nodeName).get().getStatus().getAllocatable();
        BigDecimal cpu = Quantity.getAmountInBytes(allocatable.get("cpu"));
        String memory = Quantity.getAmountInBytes(allocatable.get("memory")).toBigInteger().toString();
        Map<String, String> env = envOf("limits");
        assertThat(env).containsEntry("CPU_LIMIT", cpu.setScale(0, RoundingMode.CEILING).toPlainString())
                .containsEntry("MEMORY_LIMIT", memory);
        assertThat(exec("limits", "cat /etc/info/cpu")).isEqualTo(cpu.movePointRight(3).setScale(0, RoundingMode.CEILING).toPlainString());
        assertThat(exec("limits", "cat /etc/info/memory")).isEqualTo(memory);
    }

    @Test
    void aPodPastItsActiveDeadlineFailsAndAShortenedDeadlineCounts() {
        createPod("deadline", """
                  nodeName: %s
                  activeDeadlineSeconds: 3600
                  terminationGracePeriodSeconds: 2
                  containers:
                  - {name: app, image: %s, imagePullPolicy: Never, command: ["sleep", "3600"]}
                """.formatted(agent.nodeName, IMAGE));
        awaitRunning("deadline");
        // The deadline may only be shortened; 5 s after the pod's start has passed already or soon will.
        kubectl.run("patch", "pod", "deadline", "-p", "{\"spec\":{\"activeDeadlineSeconds\":5}}").ok();
        awaitPhase("deadline", "Failed");
        var status = pod("deadline").getStatus();
        assertThat(status.getReason()).isEqualTo("DeadlineExceeded");
        assertThat(status.getMessage()).isEqualTo("Pod was active on the node longer than the specified deadline");
        await().atMost(Duration.ofSeconds(30)).until(() ->
                Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=deadline").isEmpty());
        // Killed, the pod stays Failed with its reason, its container terminated.
        await().atMost(Duration.ofSeconds(30)).until(() ->
                pod("deadline").getStatus().getContainerStatuses().getFirst().getState().getTerminated() != null);
        assertThat(pod("deadline").getStatus().getPhase()).isEqualTo("Failed");
        assertThat(pod("deadline").getStatus().getReason()).isEqualTo("DeadlineExceeded");
        assertThat(kubectl.run("get", "events", "--field-selector", "involvedObject.name=deadline").ok().out())
                .contains("DeadlineExceeded");
    }
}
