package io.jkubelet.docker;

import com.github.dockerjava.api.command.InspectContainerResponse;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerStatus;
import io.jkubelet.core.runtime.DnsConfig;
import io.jkubelet.core.runtime.ExecResult;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PortMapping;
import io.jkubelet.core.runtime.RuntimeVersion;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What only a real Docker engine can show: namespaces shared in a pod, published host ports, cgroup limits,
 * log files, security settings, and dockershim's names and labels as node tools see them.
 */
class DockerRuntimeTest extends DockerPodsTestBase {

    @Test
    void versionNamesDockerAndItsApi() {
        RuntimeVersion version = runtime.version();

        assertThat(version.runtimeName()).isEqualTo("docker");
        assertThat(version.runtimeVersion()).isNotEmpty();
        assertThat(version.runtimeApiVersion()).matches("1\\.\\d+");
    }

    @Test
    void namesLabelsAndNamespacesFollowDockershim() {
        PodSandboxConfig sandbox = pods.sandbox("web", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        String containerId = pods.run(sandboxId, pods.container("app", PodFixture.LONG_RUNNING, sandbox,
                UnaryOperator.identity()), sandbox);
        String uid = sandbox.metadata().uid();

        InspectContainerResponse s = docker.inspectContainerCmd(sandboxId).exec();
        assertThat(s.getName()).isEqualTo("/k8s_POD_web_contract_" + uid + "_0");
        assertThat(s.getConfig().getLabels())
                .containsEntry("io.kubernetes.docker.type", "podsandbox")
                .containsEntry("io.kubernetes.container.name", "POD")
                .containsEntry("io.kubernetes.pod.uid", uid)
                .containsEntry("annotation.kubernetes.io/config.source", "file");
        assertThat(s.getHostConfig().getIpcMode()).isEqualTo("shareable");
        assertThat(s.getConfig().getImage()).isEqualTo(DockerTestSupport.PAUSE);

        InspectContainerResponse c = docker.inspectContainerCmd(containerId).exec();
        assertThat(c.getName()).isEqualTo("/k8s_app_web_contract_" + uid + "_0");
        assertThat(c.getConfig().getLabels())
                .containsEntry("io.kubernetes.docker.type", "container")
                .containsEntry("io.kubernetes.sandbox.id", sandboxId)
                .containsEntry("io.kubernetes.container.name", "app")
                .containsEntry("io.kubernetes.container.logpath", sandbox.logDirectory() + "/app/0.log")
                .containsEntry("annotation.io.kubernetes.container.hash", "1a2b3c");
        assertThat(c.getHostConfig().getNetworkMode()).isEqualTo("container:" + sandboxId);
        assertThat(c.getHostConfig().getIpcMode()).isEqualTo("container:" + sandboxId);
        assertThat(c.getHostConfig().getLogConfig().getType().getType()).isEqualTo("json-file");
        assertThat(c.getConfig().getEnv()).contains("GREETING=hello");
    }

    @Test
    void containersOfAPodReachEachOtherOnLocalhost() {
        PodSandboxConfig sandbox = pods.sandbox("pair", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        pods.run(sandboxId, pods.container("server", httpd("hello from the server"), sandbox,
                UnaryOperator.identity()), sandbox);
        String client = pods.run(sandboxId, pods.container("client", PodFixture.LONG_RUNNING, sandbox,
                UnaryOperator.identity()), sandbox);

        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() ->
                runtime.execSync(client, List.of("wget", "-q", "-O", "-", "http://127.0.0.1:8080/index.html"),
                        Duration.ofSeconds(5)).exitCode() == 0);
        ExecResult fetched = runtime.execSync(client,
                List.of("wget", "-q", "-O", "-", "http://127.0.0.1:8080/index.html"), Duration.ofSeconds(5));
        assertThat(text(fetched.stdout())).isEqualTo("hello from the server\n");
    }

    @Test
    void hostPortIsPublishedOnTheSandboxAndServedByTheContainer() throws Exception {
        int hostPort = freePort();
        PodSandboxConfig sandbox = pods.sandbox("published", c -> new PodSandboxConfig(c.metadata(), c.hostname(),
                c.logDirectory(), c.dnsConfig(), List.of(new PortMapping("TCP", 8080, hostPort, "127.0.0.1")),
                c.labels(), c.annotations(), c.cgroupParent(), c.namespaceOptions(), c.oomScoreAdj(), c.image(),
                c.privileged(), c.sysctls()));
        String sandboxId = runtime.runPodSandbox(sandbox);
        pods.run(sandboxId, pods.container("server", httpd("published"), sandbox, UnaryOperator.identity()), sandbox);

        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        URI uri = URI.create("http://127.0.0.1:" + hostPort + "/index.html");
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().until(() -> http.send(HttpRequest.newBuilder(uri).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode() == 200);
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.body()).isEqualTo("published\n");
    }

    @Test
    void memoryLimitIsEnforcedAndAnOomKillIsReportedAsOOMKilled() {
        PodSandboxConfig sandbox = pods.sandbox("hungry", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        long limit = 16L << 20;
        // A subshell doubles a variable until the cgroup's limit kills it; pid 1 then exits with its status (137).
        // Docker 20.10 marks a container OOMKilled only if containerd's TaskOOM event reached it before the TaskExit
        // of pid 1 (libcontainerd/remote/client.go; a late TaskOOM only logs an "oom" event). When the OOM killer's
        // victim is pid 1 itself, the two events race (a CI run once got the reason Error here, with pid 1 the victim).
        // With the victim a child, pid 1 exits only after the kill, so the OOM event is on its way first.
        ContainerConfig config = PodFixture.withResources(pods.container("eater",
                List.of("sh", "-c", "(x=0123456789; while true; do x=$x$x; done); exit $?"), sandbox,
                UnaryOperator.identity()), new LinuxContainerResources(100_000, 50_000, 512, limit, 0));

        String id = pods.run(sandboxId, config, sandbox);

        ContainerStatus status = pods.awaitExited(id);
        var inspected = docker.inspectContainerCmd(id).exec();
        assertThat(status.reason())
                .as("reason (exit code %s, the engine's own OOMKilled %s)", status.exitCode(),
                        inspected.getState().getOOMKilled())
                .isEqualTo("OOMKilled");
        assertThat(status.exitCode()).isEqualTo(137);
        var hc = inspected.getHostConfig();
        assertThat(hc.getMemory()).isEqualTo(limit);
        assertThat(hc.getMemorySwap()).isEqualTo(limit);
        assertThat(hc.getCpuQuota()).isEqualTo(50_000L);
        assertThat(hc.getCpuPeriod()).isEqualTo(100_000L);
        assertThat(hc.getCpuShares()).isEqualTo(512);
    }

    @Test
    void theCriLogPathUnderVarLogPodsLinksToDockersJsonLog() throws IOException {
        PodSandboxConfig sandbox = pods.sandbox("logger", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        String id = pods.run(sandboxId, pods.container("app", List.of("sh", "-c", "echo hello log; echo oops >&2"),
                sandbox, UnaryOperator.identity()), sandbox);
        pods.awaitExited(id);

        Path link = Path.of("/var/log/pods", "contract_logger_" + sandbox.metadata().uid(), "app", "0.log");
        assertThat(runtime.containerStatus(id).logPath()).isEqualTo(link.toString());
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readSymbolicLink(link).toString())
                .isEqualTo(docker.inspectContainerCmd(id).exec().getLogPath());
        assertThat(Files.readString(link))
                .contains("{\"log\":\"hello log\\n\",\"stream\":\"stdout\"")
                .contains("{\"log\":\"oops\\n\",\"stream\":\"stderr\"");

        runtime.removeContainer(id);

        assertThat(Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
    }

    @Test
    void readonlyRootFilesystemRefusesWrites() {
        PodSandboxConfig sandbox = pods.sandbox("readonly", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        String id = pods.run(sandboxId, PodFixture.withSecurity(pods.container("app", PodFixture.LONG_RUNNING,
                sandbox, UnaryOperator.identity()), PodFixture.security(null, null, List.of(), true)), sandbox);

        ExecResult write = runtime.execSync(id, List.of("touch", "/probe"), Duration.ofSeconds(10));

        assertThat(write.exitCode()).isNotZero();
        assertThat(text(write.stderr())).contains("Read-only file system");
    }

    @Test
    void runAsUserGroupAndSupplementalGroupsApply() {
        PodSandboxConfig sandbox = pods.sandbox("user", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        String id = pods.run(sandboxId, PodFixture.withSecurity(pods.container("app", PodFixture.LONG_RUNNING,
                sandbox, UnaryOperator.identity()), PodFixture.security(1234L, 5678L, List.of(4000L), false)), sandbox);

        ExecResult ids = runtime.execSync(id, List.of("sh", "-c", "id -u; id -g; id -G"), Duration.ofSeconds(10));

        assertThat(text(ids.stdout()).lines().toList()).satisfies(lines -> {
            assertThat(lines.get(0)).isEqualTo("1234");
            assertThat(lines.get(1)).isEqualTo("5678");
            assertThat(lines.get(2).split(" ")).contains("4000");
        });
    }

    @Test
    void sandboxGetsItsHostnameAndDnsConfigWhichContainersShare() {
        PodSandboxConfig sandbox = pods.sandbox("dns", c -> new PodSandboxConfig(c.metadata(), "dns-host",
                c.logDirectory(), new DnsConfig(List.of("10.96.0.10"), List.of("contract.svc.cluster.local"),
                List.of("ndots:5")), c.portMappings(), c.labels(), c.annotations(), c.cgroupParent(),
                c.namespaceOptions(), c.oomScoreAdj(), c.image(), c.privileged(), c.sysctls()));
        String sandboxId = runtime.runPodSandbox(sandbox);
        String id = pods.run(sandboxId, pods.container("app", PodFixture.LONG_RUNNING, sandbox,
                UnaryOperator.identity()), sandbox);

        String hostname = text(runtime.execSync(id, List.of("hostname"), Duration.ofSeconds(10)).stdout());
        String resolvConf = text(runtime.execSync(id, List.of("cat", "/etc/resolv.conf"), Duration.ofSeconds(10))
                .stdout());

        assertThat(hostname).isEqualTo("dns-host\n");
        assertThat(resolvConf).contains("nameserver 10.96.0.10").contains("search contract.svc.cluster.local")
                .contains("options ndots:5");
    }

    @Test
    void commandArgsEnvAndWorkingDirReachTheProcess() {
        PodSandboxConfig sandbox = pods.sandbox("argv", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        ContainerConfig config = PodFixture.withArgsAndDir(pods.container("app",
                List.of("sh", "-c", "echo \"$0 $1 $GREETING $(pwd)\""), sandbox, UnaryOperator.identity()),
                List.of("first", "second"), "/tmp");

        String id = pods.run(sandboxId, config, sandbox);
        pods.awaitExited(id);

        assertThat(dockerLog(id)).isEqualTo("first second hello /tmp\n");
    }

    @Test
    void stopKillsAProcessThatIgnoresSigtermAtTheTimeout() {
        PodSandboxConfig sandbox = pods.sandbox("stubborn", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        // sleep as PID 1 has no SIGTERM handler, so the kernel ignores the signal: only SIGKILL ends it.
        String id = pods.run(sandboxId, pods.container("app", List.of("sleep", "3600"), sandbox,
                UnaryOperator.identity()), sandbox);

        runtime.stopContainer(id, Duration.ofSeconds(1));

        ContainerStatus status = runtime.containerStatus(id);
        assertThat(status.exitCode()).isEqualTo(137);
        assertThat(status.reason()).isEqualTo("Error");
    }

    @Test
    void execTimeoutKillsTheCommandInsideTheContainer() {
        PodSandboxConfig sandbox = pods.sandbox("exectimeout", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        String id = pods.run(sandboxId, pods.container("app", PodFixture.LONG_RUNNING, sandbox,
                UnaryOperator.identity()), sandbox);

        ExecResult result = runtime.execSync(id, List.of("sh", "-c", "sleep 31; echo never"), Duration.ofSeconds(1));

        assertThat(result.timedOut()).isTrue();
        String processes = text(runtime.execSync(id, List.of("ps", "-o", "args"), Duration.ofSeconds(10)).stdout());
        assertThat(processes).doesNotContain("sleep 31");
    }

    @Test
    void statusAndListGiveBackDockershimsImageReferences() {
        PodSandboxConfig sandbox = pods.sandbox("imageref", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        String id = pods.run(sandboxId, pods.container("app", PodFixture.LONG_RUNNING, sandbox,
                UnaryOperator.identity()), sandbox);
        var image = docker.inspectImageCmd(DockerTestSupport.BUSYBOX).exec();
        String imageId = image.getId();
        // dockershim's toPullableImageID: a digest when the image has been pushed or pulled, else the id.
        String expected = image.getRepoDigests() == null || image.getRepoDigests().isEmpty()
                ? "docker://" + imageId : "docker-pullable://" + image.getRepoDigests().getFirst();

        assertThat(runtime.containerStatus(id).imageRef()).isEqualTo(expected);
        assertThat(runtime.containerStatus(id).image()).isEqualTo(DockerTestSupport.BUSYBOX);
        assertThat(runtime.listContainers(new io.jkubelet.core.runtime.ContainerFilter(id, null, null, null))
                .getFirst().imageRef()).isEqualTo(imageId);
    }

    private String dockerLog(String containerId) {
        StringBuilder out = new StringBuilder();
        try {
            docker.logContainerCmd(containerId).withStdOut(true).withStdErr(true)
                    .exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<com.github.dockerjava.api.model.Frame>() {
                        @Override
                        public void onNext(com.github.dockerjava.api.model.Frame frame) {
                            out.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                        }
                    }).awaitCompletion();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return out.toString();
    }

    /** busybox httpd serving one page on port 8080 in the foreground. */
    private static List<String> httpd(String page) {
        return List.of("sh", "-c", "mkdir -p /tmp/www && echo '" + page + "' > /tmp/www/index.html"
                + " && exec httpd -f -p 8080 -h /tmp/www");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
