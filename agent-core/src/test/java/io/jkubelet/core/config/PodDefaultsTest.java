package io.jkubelet.core.config;

import static io.jkubelet.core.config.Manifests.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodDefaultsTest {

    private static Pod defaulted(String yaml) {
        Pod pod = PodCodec.treeToValue(PodCodec.readTree(bytes(yaml)), Pod.class);
        PodDefaults.apply(pod);
        return pod;
    }

    @Test
    void podAndContainerGetTheApiserverDefaults() {
        Pod pod = defaulted(Manifests.pod("web", "busybox:1.36"));

        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Always");
        assertThat(pod.getSpec().getDnsPolicy()).isEqualTo("ClusterFirst");
        assertThat(pod.getSpec().getTerminationGracePeriodSeconds()).isEqualTo(30L);
        assertThat(pod.getSpec().getSchedulerName()).isEqualTo("default-scheduler");
        assertThat(pod.getSpec().getSecurityContext()).isNotNull();
        assertThat(pod.getSpec().getEnableServiceLinks()).isTrue();
        Container c = pod.getSpec().getContainers().getFirst();
        assertThat(c.getTerminationMessagePath()).isEqualTo("/dev/termination-log");
        assertThat(c.getTerminationMessagePolicy()).isEqualTo("File");
        assertThat(c.getImagePullPolicy()).isEqualTo("IfNotPresent");
    }

    @Test
    void givenValuesAreKept() {
        Pod pod = defaulted("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web}
                spec:
                  restartPolicy: Never
                  dnsPolicy: Default
                  terminationGracePeriodSeconds: 5
                  enableServiceLinks: false
                  containers: [{name: c, image: busybox, imagePullPolicy: Never, terminationMessagePolicy: FallbackToLogsOnError}]
                """);

        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getSpec().getDnsPolicy()).isEqualTo("Default");
        assertThat(pod.getSpec().getTerminationGracePeriodSeconds()).isEqualTo(5L);
        assertThat(pod.getSpec().getEnableServiceLinks()).isFalse();
        assertThat(pod.getSpec().getContainers().getFirst().getImagePullPolicy()).isEqualTo("Never");
        assertThat(pod.getSpec().getContainers().getFirst().getTerminationMessagePolicy())
                .isEqualTo("FallbackToLogsOnError");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "busybox, Always",
            "busybox:latest, Always",
            "busybox:1.36, IfNotPresent",
            "registry.local:5000/team/app, Always",
            "registry.local:5000/team/app:v2, IfNotPresent",
            "busybox@sha256:0000000000000000000000000000000000000000000000000000000000000000, IfNotPresent",
            "busybox:latest@sha256:0000000000000000000000000000000000000000000000000000000000000000, Always",
            "Not/A Valid:Ref, IfNotPresent"})
    void imagePullPolicyFollowsTheTag(String image, String policy) {
        assertThat(defaulted(Manifests.pod("web", image)).getSpec().getContainers().getFirst().getImagePullPolicy())
                .isEqualTo(policy);
    }

    @Test
    void portsProbesAndLifecycleHandlersAreDefaulted() {
        Pod pod = defaulted("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web}
                spec:
                  containers:
                  - name: c
                    image: busybox
                    ports: [{containerPort: 80}, {containerPort: 53, protocol: UDP}]
                    livenessProbe: {httpGet: {port: 80}}
                    readinessProbe: {tcpSocket: {port: 80}, periodSeconds: 5}
                    startupProbe: {grpc: {port: 9000}}
                    lifecycle: {preStop: {httpGet: {port: 80, path: /stop}}}
                """);

        Container c = pod.getSpec().getContainers().getFirst();
        assertThat(c.getPorts()).extracting(p -> p.getProtocol()).containsExactly("TCP", "UDP");
        assertThat(c.getPorts()).extracting(p -> p.getHostPort()).containsOnlyNulls();
        assertThat(c.getLivenessProbe().getTimeoutSeconds()).isEqualTo(1);
        assertThat(c.getLivenessProbe().getPeriodSeconds()).isEqualTo(10);
        assertThat(c.getLivenessProbe().getSuccessThreshold()).isEqualTo(1);
        assertThat(c.getLivenessProbe().getFailureThreshold()).isEqualTo(3);
        assertThat(c.getLivenessProbe().getHttpGet().getScheme()).isEqualTo("HTTP");
        assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/");
        assertThat(c.getReadinessProbe().getPeriodSeconds()).isEqualTo(5);
        assertThat(c.getStartupProbe().getGrpc().getService()).isEmpty();
        assertThat(c.getLifecycle().getPreStop().getHttpGet().getPath()).isEqualTo("/stop");
        assertThat(c.getLifecycle().getPreStop().getHttpGet().getScheme()).isEqualTo("HTTP");
    }

    @Test
    void hostNetworkPodsPublishTheirContainerPorts() {
        Pod pod = defaulted("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web}
                spec:
                  hostNetwork: true
                  initContainers: [{name: i, image: busybox, ports: [{containerPort: 9000}]}]
                  containers: [{name: c, image: busybox, ports: [{containerPort: 80}, {containerPort: 81, hostPort: 81}]}]
                """);

        assertThat(pod.getSpec().getContainers().getFirst().getPorts()).extracting(p -> p.getHostPort())
                .containsExactly(80, 81);
        assertThat(pod.getSpec().getInitContainers().getFirst().getPorts().getFirst().getHostPort()).isEqualTo(9000);
    }

    @Test
    void requestsDefaultToLimitsPerResource() {
        Pod pod = defaulted("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web}
                spec:
                  initContainers: [{name: i, image: busybox, resources: {limits: {memory: 64Mi}}}]
                  containers:
                  - {name: a, image: busybox, resources: {limits: {cpu: 500m, memory: 128Mi}}}
                  - {name: b, image: busybox, resources: {limits: {cpu: "1", memory: 128Mi}, requests: {cpu: 250m}}}
                  - {name: c, image: busybox, resources: {requests: {cpu: 250m}}}
                """);

        assertThat(pod.getSpec().getContainers()).extracting(c -> c.getResources().getRequests()).containsExactly(
                Map.of("cpu", new Quantity("500m"), "memory", new Quantity("128Mi")),
                Map.of("cpu", new Quantity("250m"), "memory", new Quantity("128Mi")),
                Map.of("cpu", new Quantity("250m")));
        assertThat(pod.getSpec().getInitContainers().getFirst().getResources().getRequests())
                .isEqualTo(Map.of("memory", new Quantity("64Mi")));
    }

    @Test
    void volumesAreDefaulted() {
        Pod pod = defaulted("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web}
                spec:
                  containers: [{name: c, image: busybox, env: [{name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}]}]
                  volumes:
                  - name: scratch
                  - name: host
                    hostPath: {path: /var/log}
                  - name: secret
                    secret: {secretName: s}
                  - name: projected
                    projected: {sources: [{serviceAccountToken: {path: token}}, {downwardAPI: {items: [{path: n, fieldRef: {fieldPath: metadata.name}}]}}]}
                """);

        var volumes = pod.getSpec().getVolumes();
        assertThat(volumes.get(0).getEmptyDir()).isNotNull();
        assertThat(volumes.get(1).getHostPath().getType()).isEmpty();
        assertThat(volumes.get(1).getEmptyDir()).isNull();
        assertThat(volumes.get(2).getSecret().getDefaultMode()).isEqualTo(0644);
        assertThat(volumes.get(3).getProjected().getDefaultMode()).isEqualTo(0644);
        assertThat(volumes.get(3).getProjected().getSources().get(0).getServiceAccountToken().getExpirationSeconds())
                .isEqualTo(3600L);
        assertThat(volumes.get(3).getProjected().getSources().get(1).getDownwardAPI().getItems().getFirst()
                .getFieldRef().getApiVersion()).isEqualTo("v1");
        assertThat(pod.getSpec().getContainers().getFirst().getEnv().getFirst().getValueFrom().getFieldRef()
                .getApiVersion()).isEqualTo("v1");
    }

    @Test
    void defaultingIsIdempotent() {
        Pod once = defaulted(Manifests.WEB_YAML);
        Pod twice = PodCodec.deepCopy(once);
        PodDefaults.apply(twice);

        assertThat(twice).isEqualTo(once);
    }
}
