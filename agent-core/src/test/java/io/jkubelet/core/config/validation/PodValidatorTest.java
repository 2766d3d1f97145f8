package io.jkubelet.core.config.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.config.PodCodec;
import io.jkubelet.core.config.PodDefaults;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PodValidatorTest {

    /** A pod in namespace default, API-defaulted, with {@code spec} as its spec (YAML flow or block). */
    private static Pod pod(String spec) {
        String yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: default}\nspec:\n"
                + spec.stripIndent().indent(2);
        Pod pod = PodCodec.treeToValue(PodCodec.readTree(yaml.getBytes(StandardCharsets.UTF_8)), Pod.class);
        PodDefaults.apply(pod);
        return pod;
    }

    private static List<String> errors(Pod pod) {
        return PodValidator.validatePodCreate(pod).stream().map(FieldError::toString).toList();
    }

    @Test
    void aValidPodHasNoErrors() {
        Pod pod = pod("""
                initContainers: [{name: init, image: busybox}, {name: sidecar, image: busybox, restartPolicy: Always,
                  readinessProbe: {exec: {command: [true]}}}]
                containers:
                - name: web
                  image: registry.local:5000/team/web:v1
                  ports: [{name: http, containerPort: 8080}, {containerPort: 53, protocol: UDP}]
                  env: [{name: my.var-1, value: x}]
                  resources: {limits: {cpu: "2", memory: 1Gi, example.com/gpu: "1"}, requests: {cpu: 500m}}
                  volumeMounts: [{name: data, mountPath: /data, mountPropagation: HostToContainer}]
                  livenessProbe: {httpGet: {port: http}}
                  startupProbe: {tcpSocket: {port: 8080}, failureThreshold: 30}
                  lifecycle: {preStop: {sleep: {seconds: 5}}}
                - name: csi-plugin
                  image: busybox
                  securityContext: {privileged: true}
                  volumeMounts: [{name: data, mountPath: /data, mountPropagation: Bidirectional}]
                volumes: [{name: data, emptyDir: {}}]
                """);

        assertThat(errors(pod)).isEmpty();
    }

    static Stream<Arguments> invalidPods() {
        return Stream.of(
                Arguments.of("no containers", "containers: []", "spec.containers: Required value"),
                Arguments.of("container name not a DNS label", "containers: [{name: Web_1, image: busybox}]",
                        "spec.containers[0].name: Invalid value: \"Web_1\": a lowercase RFC 1123 label must consist of"
                                + " lower case alphanumeric characters or '-', and must start and end with an"
                                + " alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation"
                                + " is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
                Arguments.of("duplicate container names", "containers: [{name: a, image: busybox}, {name: a, image: busybox}]",
                        "spec.containers[1].name: Duplicate value: \"a\""),
                Arguments.of("init and app container share a name",
                        "initContainers: [{name: a, image: busybox}]\ncontainers: [{name: a, image: busybox}]",
                        "spec.containers[0].name: Duplicate value: \"a\""),
                Arguments.of("no image", "containers: [{name: a}]", "spec.containers[0].image: Required value"),
                Arguments.of("image with whitespace", "containers: [{name: a, image: ' busybox'}]",
                        "spec.containers[0].image: Invalid value: \" busybox\": must not have leading or trailing"
                                + " whitespace"),
                Arguments.of("invalid image reference", "containers: [{name: a, image: 'busybox:bad tag'}]",
                        "spec.containers[0].image: Invalid value: \"busybox:bad tag\": invalid reference format"),
                Arguments.of("invalid quantity", "containers: [{name: a, image: busybox, resources: {limits: {cpu: abc}}}]",
                        "spec.containers[0].resources.limits[cpu]: Invalid value: \"abc\": quantities must match the"
                                + " regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
                Arguments.of("unknown quantity suffix", "containers: [{name: a, image: busybox, resources: {requests: {memory: 1Qi}}}]",
                        "spec.containers[0].resources.requests[memory]: Invalid value: \"1Qi\": quantities must match"),
                Arguments.of("negative quantity", "containers: [{name: a, image: busybox, resources: {requests: {memory: -1Mi}}}]",
                        "spec.containers[0].resources.requests[memory]: Invalid value: \"-1Mi\": must be greater than or"
                                + " equal to 0"),
                Arguments.of("request above limit",
                        "containers: [{name: a, image: busybox, resources: {limits: {cpu: 500m}, requests: {cpu: '1'}}}]",
                        "spec.containers[0].resources.requests[cpu]: Invalid value: \"1\": must be less than or equal to"
                                + " cpu limit of 500m"),
                Arguments.of("unknown resource", "containers: [{name: a, image: busybox, resources: {limits: {gpu: '1'}}}]",
                        "spec.containers[0].resources.limits: Invalid value: \"gpu\": must be a standard resource for"
                                + " containers"),
                Arguments.of("container port out of range", "containers: [{name: a, image: busybox, ports: [{containerPort: 70000}]}]",
                        "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535,"
                                + " inclusive"),
                Arguments.of("no container port", "containers: [{name: a, image: busybox, ports: [{name: http}]}]",
                        "spec.containers[0].ports[0].containerPort: Required value"),
                Arguments.of("host port out of range", "containers: [{name: a, image: busybox, ports: [{containerPort: 80, hostPort: -1}]}]",
                        "spec.containers[0].ports[0].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive"),
                Arguments.of("bad protocol", "containers: [{name: a, image: busybox, ports: [{containerPort: 80, protocol: HTTP}]}]",
                        "spec.containers[0].ports[0].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\","
                                + " \"TCP\", \"UDP\""),
                Arguments.of("duplicate port names",
                        "containers: [{name: a, image: busybox, ports: [{name: web, containerPort: 80}, {name: web, containerPort: 81}]}]",
                        "spec.containers[0].ports[1].name: Duplicate value: \"web\""),
                Arguments.of("port name too long", "containers: [{name: a, image: busybox, ports: [{name: very-long-port-name, containerPort: 80}]}]",
                        "spec.containers[0].ports[0].name: Invalid value: \"very-long-port-name\": must be no more than 15"
                                + " characters"),
                Arguments.of("host port differs under hostNetwork",
                        "hostNetwork: true\ncontainers: [{name: a, image: busybox, ports: [{containerPort: 80, hostPort: 8080}]}]",
                        "spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when"
                                + " `hostNetwork` is true"),
                Arguments.of("bad restartPolicy", "restartPolicy: Sometimes\ncontainers: [{name: a, image: busybox}]",
                        "spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\","
                                + " \"Never\""),
                Arguments.of("bad dnsPolicy", "dnsPolicy: Google\ncontainers: [{name: a, image: busybox}]",
                        "spec.dnsPolicy: Unsupported value: \"Google\": supported values: \"ClusterFirstWithHostNet\","
                                + " \"ClusterFirst\", \"Default\", \"None\""),
                Arguments.of("dnsPolicy None without dnsConfig", "dnsPolicy: None\ncontainers: [{name: a, image: busybox}]",
                        "spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"),
                Arguments.of("bad imagePullPolicy", "containers: [{name: a, image: busybox, imagePullPolicy: Sometimes}]",
                        "spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": supported values:"
                                + " \"Always\", \"IfNotPresent\", \"Never\""),
                Arguments.of("bad terminationMessagePolicy", "containers: [{name: a, image: busybox, terminationMessagePolicy: Log}]",
                        "spec.containers[0].terminationMessagePolicy: Unsupported value: \"Log\""),
                Arguments.of("duplicate volume names",
                        "containers: [{name: a, image: busybox}]\nvolumes: [{name: v, emptyDir: {}}, {name: v, emptyDir: {}}]",
                        "spec.volumes[1].name: Duplicate value: \"v\""),
                Arguments.of("volume with two sources",
                        "containers: [{name: a, image: busybox}]\nvolumes: [{name: v, emptyDir: {}, hostPath: {path: /x}}]",
                        "spec.volumes[0]: Forbidden: may not specify more than 1 volume type"),
                Arguments.of("mount of an undefined volume",
                        "containers: [{name: a, image: busybox, volumeMounts: [{name: data, mountPath: /data}]}]",
                        "spec.containers[0].volumeMounts[0].name: Not found: \"data\""),
                Arguments.of("mount without a path",
                        "containers: [{name: a, image: busybox, volumeMounts: [{name: v}]}]\nvolumes: [{name: v}]",
                        "spec.containers[0].volumeMounts[0].mountPath: Required value"),
                Arguments.of("two mounts at one path",
                        "containers: [{name: a, image: busybox, volumeMounts: [{name: v, mountPath: /d}, {name: v, mountPath: /d}]}]\n"
                                + "volumes: [{name: v}]",
                        "spec.containers[0].volumeMounts[1].mountPath: Invalid value: \"/d\": must be unique"),
                Arguments.of("Bidirectional propagation in an unprivileged container",
                        "containers: [{name: a, image: busybox, volumeMounts: [{name: v, mountPath: /d, mountPropagation: Bidirectional}]}]\n"
                                + "volumes: [{name: v}]",
                        "spec.containers[0].volumeMounts[0].mountPropagation: Forbidden: Bidirectional mount propagation is"
                                + " available only to privileged containers"),
                Arguments.of("unknown mount propagation",
                        "containers: [{name: a, image: busybox, volumeMounts: [{name: v, mountPath: /d, mountPropagation: Shared}]}]\n"
                                + "volumes: [{name: v}]",
                        "spec.containers[0].volumeMounts[0].mountPropagation: Unsupported value: \"Shared\": supported values:"
                                + " \"Bidirectional\", \"HostToContainer\", \"None\""),
                Arguments.of("probe without handler", "containers: [{name: a, image: busybox, livenessProbe: {periodSeconds: 5}}]",
                        "spec.containers[0].livenessProbe: Required value: must specify a handler type"),
                Arguments.of("probe with two handlers",
                        "containers: [{name: a, image: busybox, readinessProbe: {exec: {command: [x]}, tcpSocket: {port: 80}}}]",
                        "spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type"),
                Arguments.of("liveness success threshold",
                        "containers: [{name: a, image: busybox, livenessProbe: {exec: {command: [x]}, successThreshold: 2}}]",
                        "spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1"),
                Arguments.of("probe port out of range",
                        "containers: [{name: a, image: busybox, livenessProbe: {httpGet: {port: 0}}}]",
                        "spec.containers[0].livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535,"
                                + " inclusive"),
                Arguments.of("lifecycle handler without action",
                        "containers: [{name: a, image: busybox, lifecycle: {postStart: {}}}]",
                        "spec.containers[0].lifecycle.postStart: Required value: must specify a handler type"),
                Arguments.of("probe on a plain init container",
                        "initContainers: [{name: i, image: busybox, livenessProbe: {exec: {command: [x]}}}]\n"
                                + "containers: [{name: a, image: busybox}]",
                        "spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without"
                                + " restartPolicy=Always"),
                Arguments.of("restartPolicy on an app container",
                        "containers: [{name: a, image: busybox, restartPolicy: Always}]",
                        "spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers"),
                Arguments.of("env name with '='", "containers: [{name: a, image: busybox, env: [{name: 'A=B', value: x}]}]",
                        "spec.containers[0].env[0].name: Invalid value: \"A=B\": a valid environment variable name must"
                                + " consist only of printable ASCII characters other than '='"),
                Arguments.of("ephemeral containers",
                        "containers: [{name: a, image: busybox}]\nephemeralContainers: [{name: e, image: busybox}]",
                        "spec.ephemeralContainers: Forbidden: cannot be set on create"),
                Arguments.of("active deadline 0", "activeDeadlineSeconds: 0\ncontainers: [{name: a, image: busybox}]",
                        "spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidPods")
    void invalidPodIsReportedWithFieldAndReason(String what, String spec, String expected) {
        assertThat(errors(pod(spec))).anySatisfy(error -> assertThat(error).startsWith(expected));
    }

    @Test
    void metadataIsChecked() {
        Pod pod = pod("containers: [{name: a, image: busybox}]");
        pod.getMetadata().setName("x".repeat(254));
        pod.getMetadata().setNamespace("Kube_System");
        pod.getMetadata().setLabels(java.util.Map.of("app/x/y", "ok", "tier", "-bad-"));
        pod.getMetadata().setAnnotations(java.util.Map.of("example.com/", "v"));

        assertThat(errors(pod)).containsExactlyInAnyOrder(
                "metadata.name: Invalid value: \"" + "x".repeat(254) + "\": must be no more than 253 characters",
                "metadata.namespace: Invalid value: \"Kube_System\": a lowercase RFC 1123 label must consist of lower"
                        + " case alphanumeric characters or '-', and must start and end with an alphanumeric character"
                        + " (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                "metadata.labels: Invalid value: \"app/x/y\": a qualified name must consist of alphanumeric characters,"
                        + " '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or"
                        + " 'my.name',  or '123-abc', regex used for validation is"
                        + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/'"
                        + " (e.g. 'example.com/MyName')",
                "metadata.labels[tier]: Invalid value: \"-bad-\": a valid label must be an empty string or consist of"
                        + " alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric"
                        + " character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is"
                        + " '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                "metadata.annotations: Invalid value: \"example.com/\": name part must be non-empty",
                "metadata.annotations: Invalid value: \"example.com/\": name part must consist of alphanumeric"
                        + " characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g."
                        + " 'MyName',  or 'my.name',  or '123-abc', regex used for validation is"
                        + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
    }

    @Test
    void staticPodsMayNotUseClusterTrustBundles() {
        Pod pod = pod("""
                containers: [{name: a, image: busybox}]
                volumes: [{name: v, projected: {sources: [{clusterTrustBundle: {name: b, path: ca.pem}}]}}]
                """);

        assertThat(PodValidator.validateStaticPodRestrictions(pod)).map(FieldError::toString).containsExactly(
                "spec.volumes[0].projected.sources[0].clusterTrustBundle: Forbidden: static pods may not use"
                        + " ClusterTrustBundle projected volumes");
    }
}
