package io.jkubelet.docker;

import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ExecResult;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.SecurityProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Seccomp profiles on the real engine: Docker's default profile refuses {@code unshare} (a new user namespace), which
 * an unconfined container may do; a Localhost profile's own rules apply; a missing profile file fails the create.
 */
class DockerSeccompTest extends DockerPodsTestBase {
    /** A new user namespace: Docker's default profile refuses the unshare call without CAP_SYS_ADMIN. */
    private static final List<String> UNSHARE = List.of("unshare", "-U", "true");

    @Test
    void runtimeDefaultRefusesUnshareWhichUnconfinedAllows() {
        PodSandboxConfig sandbox = pods.sandbox("seccomp", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);

        String confined = pods.run(sandboxId, withSeccomp(pods.container("confined", PodFixture.LONG_RUNNING, sandbox,
                UnaryOperator.identity()), SecurityProfile.RUNTIME_DEFAULT), sandbox);
        String unconfined = pods.run(sandboxId, withSeccomp(pods.container("unconfined", PodFixture.LONG_RUNNING,
                sandbox, UnaryOperator.identity()), SecurityProfile.UNCONFINED), sandbox);

        ExecResult refused = runtime.execSync(confined, UNSHARE, Duration.ofSeconds(10));
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(text(refused.stderr())).contains("Operation not permitted");
        assertThat(runtime.execSync(unconfined, UNSHARE, Duration.ofSeconds(10)).exitCode()).isZero();
        assertThat(docker.inspectContainerCmd(confined).exec().getHostConfig().getSecurityOpts())
                .noneMatch(o -> o.startsWith("seccomp="));
        assertThat(docker.inspectContainerCmd(unconfined).exec().getHostConfig().getSecurityOpts())
                .contains("seccomp=unconfined");
    }

    @Test
    void theSandboxRunsUnderDockersDefaultProfile() {
        PodSandboxConfig sandbox = pods.sandbox("pause", c -> withSandboxSeccomp(c, SecurityProfile.RUNTIME_DEFAULT));
        String sandboxId = runtime.runPodSandbox(sandbox);

        assertThat(docker.inspectContainerCmd(sandboxId).exec().getHostConfig().getSecurityOpts())
                .noneMatch(o -> o.startsWith("seccomp="));
        assertThat(runtime.podSandboxStatus(sandboxId).state().name()).isEqualTo("SANDBOX_READY");
    }

    @Test
    void aLocalhostProfileAppliesItsOwnRules(@TempDir Path dir) throws IOException {
        // Everything allowed but mkdir: unshare works (not Docker's default), mkdir does not (the file's rule).
        Path profile = dir.resolve("no-mkdir.json");
        Files.writeString(profile, """
                {
                  "defaultAction": "SCMP_ACT_ALLOW",
                  "syscalls": [ { "names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO" } ]
                }
                """);
        PodSandboxConfig sandbox = pods.sandbox("localhost", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);

        String id = pods.run(sandboxId, withSeccomp(pods.container("custom", PodFixture.LONG_RUNNING, sandbox,
                UnaryOperator.identity()), SecurityProfile.localhost(profile.toString())), sandbox);

        assertThat(runtime.execSync(id, UNSHARE, Duration.ofSeconds(10)).exitCode()).isZero();
        ExecResult mkdir = runtime.execSync(id, List.of("mkdir", "/tmp/d"), Duration.ofSeconds(10));
        assertThat(mkdir.exitCode()).isEqualTo(1);
        assertThat(text(mkdir.stderr())).contains("Operation not permitted");
    }

    @Test
    void aMissingLocalhostProfileFailsTheCreateNamingTheFile(@TempDir Path dir) {
        PodSandboxConfig sandbox = pods.sandbox("missing", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        Path missing = dir.resolve("absent.json");

        ContainerConfig config = withSeccomp(pods.container("app", PodFixture.LONG_RUNNING, sandbox,
                UnaryOperator.identity()), SecurityProfile.localhost(missing.toString()));

        assertThatThrownBy(() -> runtime.createContainer(sandboxId, config, sandbox))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("failed to generate seccomp security options for container app: cannot load seccomp "
                        + "profile \"" + missing + "\": open " + missing + ": no such file or directory");
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static ContainerConfig withSeccomp(ContainerConfig c, SecurityProfile profile) {
        return PodFixture.withSecurity(c, new LinuxContainerSecurityContext(null, null, List.of(), false, false,
                List.of(), List.of(), NamespaceOptions.POD_DEFAULT, false, profile));
    }

    private static PodSandboxConfig withSandboxSeccomp(PodSandboxConfig c, SecurityProfile profile) {
        return new PodSandboxConfig(c.metadata(), c.hostname(), c.logDirectory(), c.dnsConfig(), c.portMappings(),
                c.labels(), c.annotations(), c.cgroupParent(), c.namespaceOptions(), c.oomScoreAdj(), c.image(),
                c.privileged(), c.sysctls(), profile);
    }
}
