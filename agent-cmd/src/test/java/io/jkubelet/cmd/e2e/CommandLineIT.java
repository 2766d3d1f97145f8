package io.jkubelet.cmd.e2e;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad input ends the built jar before anything starts: exit code 1 and one message naming what is wrong. */
class CommandLineIT {
    @TempDir Path dir;

    record Exit(int code, String output) {}

    /**
     * A run that fails beside the runtime's set-up (the secure port's settings are checked on a start-up thread) may get
     * as far as the kubelet's start, which bind-mounts its root directory on itself to make it rshared.
     */
    @AfterEach
    void unmountTheRootDirectory() throws Exception {
        RealClusterBase.unmountUnder(dir);
    }

    private Exit run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", Agent.jar()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("jkubelet exits").isTrue();
        return new Exit(p.exitValue(), out);
    }

    @Test
    void versionAndHelpExitZero() throws Exception {
        Exit v = run("--version");
        assertThat(v.code()).isZero();
        assertThat(v.output().trim()).isEqualTo("Kubernetes v1.30.0");
        Exit h = run("--help");
        assertThat(h.code()).isZero();
        assertThat(h.output()).contains("--pod-manifest-path").contains("--config");
    }

    @Test
    void unknownFlagAndBadValues() throws Exception {
        Exit unknown = run("--no-such-flag");
        assertThat(unknown.code()).isEqualTo(1);
        assertThat(unknown.output()).contains("unknown flag: --no-such-flag");

        Exit port = run("--port=-1");
        assertThat(port.code()).isEqualTo(1);
        assertThat(port.output()).contains("port (--port) -1 must be between 1 and 65535");

        Exit duration = run("--sync-frequency", "soon");
        assertThat(duration.code()).isEqualTo(1);
        assertThat(duration.output()).contains("--sync-frequency").contains("soon");
    }

    @Test
    void anUnknownLogFormatIsRefusedAsComponentBaseDoes() throws Exception {
        Exit e = run("--logging-format=xml");
        assertThat(e.code()).isEqualTo(1);
        assertThat(e.output().trim()).isEqualTo("Error: logging.format: Invalid value: \"xml\": Unsupported log format");
    }

    @Test
    void nodeLabelsTheNodeRestrictionPluginWouldRefuseEndTheAgent() throws Exception {
        Exit e = run("--node-labels=node-role.kubernetes.io/worker=,team=ops");
        assertThat(e.code()).isEqualTo(1);
        assertThat(e.output()).startsWith("Error: failed to validate kubelet flags: unknown 'kubernetes.io' or 'k8s.io' "
                + "labels specified with --node-labels: [node-role.kubernetes.io/worker]\n--node-labels in the "
                + "'kubernetes.io' namespace must begin with an allowed prefix (kubelet.kubernetes.io, node.kubernetes.io)");
    }

    @Test
    void aStartFailureInJsonFormatIsAJsonLine() throws Exception {
        Exit e = run("--logging-format=json", "--root-dir", dir.resolve("root").toString(), "--cert-dir",
                dir.resolve("pki").toString(), "--healthz-port", "0", "--read-only-port", "0",
                "--container-runtime-endpoint", "unix://" + dir.resolve("no-such.sock"), "--hostname-override", "json-fail");
        assertThat(e.code()).isEqualTo(1);
        List<String> lines = logLines(e.output().lines().toList());
        assertThat(lines).isNotEmpty().allSatisfy(line -> assertThat(line).startsWith("{\"ts\":").endsWith("}"));
        assertThat(lines.getLast()).contains("\"msg\":\"command failed\",\"err\":\"")
                .contains(dir.resolve("no-such.sock").toString());
    }

    @Test
    void jsonSplitStreamSendsInfoToStdoutAndErrorsToStderr() throws Exception {
        Path config = dir.resolve("alpha.yaml");
        Files.writeString(config, """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                featureGates: {LoggingAlphaOptions: true}
                authentication: {anonymous: {enabled: true}, webhook: {enabled: false}}
                authorization: {mode: AlwaysAllow}
                """);
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", Agent.jar(), "--config", config.toString(), "--logging-format=json", "--log-json-split-stream",
                "--log-json-info-buffer-size=64Ki", "--root-dir", dir.resolve("root").toString(), "--cert-dir",
                dir.resolve("pki").toString(), "--healthz-port", "0", "--read-only-port", "0",
                "--container-runtime-endpoint", "unix://" + dir.resolve("no-such.sock"), "--hostname-override", "split"));
        Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("jkubelet exits").isTrue();
        assertThat(p.exitValue()).isEqualTo(1);

        List<String> stdout = Files.readAllLines(dir.resolve("stdout"));
        List<String> stderr = logLines(Files.readAllLines(dir.resolve("stderr")));
        assertThat(stdout).as("the buffered info messages, written at exit").isNotEmpty()
                .allSatisfy(line -> assertThat(line).startsWith("{\"ts\":").contains("\"v\":"))
                .anySatisfy(line -> assertThat(line).contains("\"msg\":\"Starting jkubelet v1.30.0 as node split"));
        assertThat(stderr).singleElement().asString().contains("\"msg\":\"command failed\",\"err\":\"")
                .doesNotContain("\"v\":");
    }

    @Test
    void anUnreadableKubeconfigIsNamedAndSoIsAnUnreadableBootstrapKubeconfig() throws Exception {
        Path kubeconfig = dir.resolve("kubelet.conf");
        List<String> common = List.of("--root-dir", dir.resolve("root").toString(), "--cert-dir", dir.resolve("pki").toString(),
                "--healthz-port", "0", "--read-only-port", "0");
        List<String> plain = new ArrayList<>(List.of("--kubeconfig", kubeconfig.toString()));
        plain.addAll(common);
        Exit e = run(plain.toArray(String[]::new));
        assertThat(e.code()).isEqualTo(1);
        assertThat(e.output()).contains("--kubeconfig " + kubeconfig + ": cannot read");

        // No kubeconfig yet: the bootstrap kubeconfig is read to ask for a certificate, and named when it cannot be.
        List<String> bootstrapping = new ArrayList<>(plain);
        bootstrapping.addAll(List.of("--bootstrap-kubeconfig", dir.resolve("bootstrap.conf").toString()));
        Exit b = run(bootstrapping.toArray(String[]::new));
        assertThat(b.code()).isEqualTo(1);
        assertThat(b.output()).contains("--bootstrap-kubeconfig " + dir.resolve("bootstrap.conf") + ": cannot read")
                .doesNotContain("is not supported");
    }

    @Test
    void badConfigFiles() throws Exception {
        Path unknownField = dir.resolve("unknown.yaml");
        Files.writeString(unknownField, """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                podManifestDir: /etc/kubernetes/manifests
                """);
        Exit e1 = run("--config", unknownField.toString());
        assertThat(e1.code()).isEqualTo(1);
        assertThat(e1.output()).contains(unknownField.toString()).contains("podManifestDir");

        Path wrongVersion = dir.resolve("version.yaml");
        Files.writeString(wrongVersion, """
                apiVersion: kubelet.config.k8s.io/v1
                kind: KubeletConfiguration
                """);
        Exit e2 = run("--config", wrongVersion.toString());
        assertThat(e2.code()).isEqualTo(1);
        assertThat(e2.output()).contains(wrongVersion.toString()).contains("kubelet.config.k8s.io/v1");

        Exit e3 = run("--config", dir.resolve("missing.yaml").toString());
        assertThat(e3.code()).isEqualTo(1);
        assertThat(e3.output()).contains("missing.yaml");
    }

    @Test
    void aBadDropInIsNamedWithWhatIsWrong() throws Exception {
        Path dropIns = Files.createDirectories(dir.resolve("kubelet.conf.d"));
        Files.writeString(dropIns.resolve("10-node.conf"), """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                maxPod: 20
                """);
        Exit e = run("--config-dir", dropIns.toString());
        assertThat(e.code()).isEqualTo(1);
        assertThat(e.output()).contains("Error: failed to merge kubelet configs: failed to walk through kubelet dropin "
                + "directory \"" + dropIns + "\": failed to load kubelet dropin file, path: " + dropIns.resolve("10-node.conf")
                + ", error: line 3, column 9: unknown field \"maxPod\"");
    }

    @Test
    void anUnknownFeatureGateStopsTheStart() throws Exception {
        Exit e = run("--feature-gates", "SidecarContainers=true,NoSuchGate=true");
        assertThat(e.code()).isEqualTo(1);
        assertThat(e.output()).contains("Error: failed to set feature gates from initial flags-based config: "
                + "unrecognized feature gate: NoSuchGate");
    }

    @Test
    void unreachableRuntimeEndpointNamesItAndHowToStartDocker() throws Exception {
        Exit e = run("--container-runtime-endpoint", "unix://" + dir.resolve("docker.sock"),
                "--hostname-override", "cli-test", "--root-dir", dir.resolve("root").toString(),
                "--healthz-port", "0", "--read-only-port", "0", "--cert-dir", dir.resolve("pki").toString());
        assertThat(e.code()).isEqualTo(1);
        assertThat(e.output()).contains("unix://" + dir.resolve("docker.sock")).contains("dockerd");
    }

    @Test
    void webhookAuthWithoutAnApiserverFailsClosedAtStartUp() throws Exception {
        // A config file brings v1beta1's defaults: token webhook on, authorization Webhook. With no
        // apiserver to ask, the kubelet refuses to start rather than serve 10250 open.
        Path config = dir.resolve("webhook.yaml");
        Files.writeString(config, """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                healthzPort: 0
                """);
        Exit e = run("--config", config.toString(), "--hostname-override", "cli-test", "--root-dir",
                dir.resolve("root").toString(), "--cert-dir", dir.resolve("pki").toString());
        assertThat(e.code()).isEqualTo(1);
        assertThat(e.output()).contains("no client provided, cannot use webhook authentication");

        Exit authz = run("--config", config.toString(), "--authentication-token-webhook=false", "--anonymous-auth=true", "--hostname-override",
                "cli-test", "--root-dir", dir.resolve("root").toString(), "--cert-dir", dir.resolve("pki").toString());
        assertThat(authz.code()).isEqualTo(1);
        assertThat(authz.output()).contains("no client provided, cannot use webhook authorization");

        // The serving certificate is read beside the runtime's set-up; a bad one still ends the agent before its
        // static pod is touched.
        Path manifests = Files.createDirectories(dir.resolve("manifests"));
        Files.writeString(manifests.resolve("pod.yaml"), """
                apiVersion: v1
                kind: Pod
                metadata: {name: never-started}
                spec:
                  containers:
                  - {name: c, image: jkubelet/busybox:1.0, command: ["sleep", "3600"]}
                """);
        Exit badCert = run("--tls-cert-file", dir.resolve("none.crt").toString(), "--tls-private-key-file",
                dir.resolve("none.key").toString(), "--hostname-override", "cli-test", "--root-dir",
                dir.resolve("root").toString(), "--healthz-port", "0", "--read-only-port", "0",
                "--pod-manifest-path", manifests.toString(), "--pod-logs-dir", dir.resolve("pods").toString());
        assertThat(badCert.code()).isEqualTo(1);
        assertThat(badCert.output()).contains("certificate file " + dir.resolve("none.crt") + " does not exist");
        assertThat(dockerContainersOf("never-started-cli-test")).as("containers of the static pod").isEmpty();
        // Upstream's warning for a flag of a configuration field, once, before the value is acted on.
        String warning = "Flag --tls-cert-file has been deprecated, This parameter should be set via the config file "
                + "specified by the Kubelet's --config flag. See "
                + "https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.";
        assertThat(badCert.output().split(java.util.regex.Pattern.quote(warning), -1)).hasSize(2);
    }

    /** The names of the containers Docker has for a pod (upstream's label), running or not. */
    private static String dockerContainersOf(String podName) throws Exception {
        Process p = new ProcessBuilder("docker", "ps", "-a", "--format", "{{.Names}}", "--filter",
                "label=io.kubernetes.pod.name=" + podName).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("docker ps: " + out).isZero();
        return out;
    }

    /** The log's lines, without pflag's deprecation notices, printed in plain text before logging is set up, as upstream's. */
    static List<String> logLines(List<String> output) {
        return output.stream().filter(line -> !line.startsWith("Flag --")).toList();
    }
}
