package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.config.DecodeResult;
import io.jkubelet.core.config.StaticPodDecoder;
import io.jkubelet.core.config.StaticPodDefaults;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link PodFeaturesAdmitHandler} refuses beside the reviewed list's single fields ({@code PodFieldCoverageTest}):
 * fields its model does not know, several fields at once, and nothing of what ordinary pods carry once defaulted.
 */
class PodFeaturesAdmitHandlerTest {
    private final PodFeaturesAdmitHandler handler = new PodFeaturesAdmitHandler(() -> false);

    private static Pod staticPod(String yaml) {
        DecodeResult<Pod> decoded = StaticPodDecoder.tryDecodeSinglePod(yaml.getBytes(StandardCharsets.UTF_8),
                StaticPodDefaults.forFile("node-a", "/etc/kubernetes/manifests/p.yaml"));
        assertThat(decoded).isInstanceOf(DecodeResult.Decoded.class);
        return ((DecodeResult.Decoded<Pod>) decoded).value();
    }

    @Test
    void aFieldTheModelDoesNotKnowIsRefusedByItsPathWhereverItIs() {
        Pod pod = staticPod("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: default}
                spec:
                  containers:
                  - name: app
                    image: busybox
                    imagePullPolicy: IfNotPresent
                    securityContext: {runAsUserName: 1000}
                    resources: {limits: {memory: 16Mi}}
                  volumes:
                  - name: v
                    futureSource: {x: 1}
                  futureField: true
                """);

        PodAdmitResult result = handler.admit(pod, List.of());

        assertThat(result.reason()).isEqualTo("PodFeatureUnsupported");
        assertThat(result.message()).isEqualTo("Pod requires node features that are not available: "
                + "a field this kubelet does not know (spec.futureField), "
                + "a field this kubelet does not know (spec.containers[0].securityContext.runAsUserName), "
                + "a field this kubelet does not know (spec.volumes[0].futureSource)");
    }

    @Test
    void aPodWithAGitRepoVolumeIsAdmittedAsUpstreamsKubeletServesThem() {
        Pod pod = staticPod("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: default}
                spec:
                  containers:
                  - name: app
                    image: busybox
                    volumeMounts: [{name: site, mountPath: /site}]
                  volumes:
                  - name: site
                    gitRepo: {repository: "https://example.com/site.git", revision: main, directory: .}
                """);
        assertThat(handler.admit(pod, List.of())).isEqualTo(PodAdmitResult.ADMIT);
    }

    @Test
    void everyFieldIsNamedInOneMessageAndPodLevelResourcesComeFirstWithTheirOwnReason() {
        Pod pod = staticPod("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: default}
                spec:
                  hostUsers: false
                  containers:
                  - name: app
                    image: busybox
                    lifecycle: {stopSignal: SIGUSR1}
                  volumes:
                  - {name: data, image: {reference: "busybox:1.36"}}
                """);
        assertThat(handler.admit(pod, List.of()).message()).isEqualTo("Pod requires node features that are not "
                + "available: user namespaces (spec.hostUsers), image volumes (spec.volumes[0].image), container stop "
                + "signals (spec.containers[0].lifecycle.stopSignal)");

        pod.getSpec().setResources(new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
                .addToLimits("cpu", new io.fabric8.kubernetes.api.model.Quantity("1")).build());
        PodAdmitResult podLevel = handler.admit(pod, List.of());
        assertThat(podLevel.reason()).isEqualTo("PodLevelResourcesNotSupported");
        assertThat(podLevel.message()).isEqualTo("PodLevelResources feature gate is disabled: this kubelet does not "
                + "enforce pod-level resources (spec.resources)");
    }

    @Test
    void theExampleStaticPodsAndARichOrdinaryPodAreAdmittedOnceDefaulted() throws IOException {
        Path examples = Path.of("").toAbsolutePath().getParent().resolve("config/static-pods");
        try (Stream<Path> files = Files.list(examples)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
                assertThat(handler.admit(staticPod(Files.readString(file)), List.of())).as(file.toString())
                        .isEqualTo(PodAdmitResult.ADMIT);
            }
        }
        Pod rich = staticPod("""
                apiVersion: v1
                kind: Pod
                metadata: {name: rich, namespace: default}
                spec:
                  hostUsers: true
                  runtimeClassName: sandboxed
                  overhead: {cpu: 250m, memory: 120Mi}
                  securityContext: {runAsNonRoot: true, runAsUser: 1000, fsGroup: 2000, supplementalGroupsPolicy: Merge,
                    seccompProfile: {type: RuntimeDefault}, sysctls: [{name: net.ipv4.tcp_syncookies, value: "1"}]}
                  initContainers:
                  - {name: sidecar, image: busybox, restartPolicy: Always}
                  containers:
                  - name: app
                    image: busybox
                    env:
                    - {name: A, value: "1"}
                    - {name: B, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
                    ports: [{containerPort: 80, name: http}]
                    livenessProbe: {httpGet: {port: http, path: /healthz}, periodSeconds: 5}
                    readinessProbe: {grpc: {port: 9090}}
                    startupProbe: {tcpSocket: {port: 80}}
                    lifecycle: {preStop: {sleep: {seconds: 1}}, postStart: {exec: {command: [sh, -c, "true"]}}}
                    securityContext: {allowPrivilegeEscalation: false, procMount: Default, readOnlyRootFilesystem: true,
                      capabilities: {drop: [ALL]}}
                    volumeMounts:
                    - {name: data, mountPath: /data, recursiveReadOnly: Disabled}
                    - {name: config, mountPath: /config}
                    volumeDevices:
                    - {name: disk, devicePath: /dev/xvda}
                  volumes:
                  - {name: data, emptyDir: {medium: Memory, sizeLimit: 16Mi}}
                  - {name: disk, persistentVolumeClaim: {claimName: db-disk}}
                  - name: config
                    projected: {sources: [{serviceAccountToken: {path: token}}, {downwardAPI: {items: [{path: name,
                      fieldRef: {fieldPath: metadata.name}}]}}]}
                """);
        assertThat(handler.admit(rich, List.of())).isEqualTo(PodAdmitResult.ADMIT);
    }
}
