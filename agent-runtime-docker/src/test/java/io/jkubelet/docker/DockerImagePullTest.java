package io.jkubelet.docker;

import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImagePullException;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.core.runtime.RegistryAuth;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Pulls from a real registry on loopback: Debian's docker-registry, started by {@code jk_ensure_registry}
 * (bin/lib/common.sh) on 127.0.0.1:5000 (open) and 127.0.0.1:5001 (htpasswd), both serving
 * jkubelet/busybox:1.0 and jkubelet/pause:3.9 ({@link TestRegistries}).
 */
@Tag("docker")
class DockerImagePullTest {
    private static final String OPEN = TestRegistries.OPEN;
    private static final String AUTH = TestRegistries.AUTH;
    private static final String USER = TestRegistries.USER;
    private static final String PASSWORD = TestRegistries.PASSWORD;

    private static DockerRuntime runtime;
    /** Local references a test pulled, removed afterwards by reference so the shared local images stay. */
    private final List<String> pulled = new ArrayList<>();
    private PodFixture pods;

    @BeforeAll
    static void registriesAndRuntime() throws Exception {
        TestRegistries.ensure();
        runtime = DockerTestSupport.connect();
    }

    @AfterAll
    static void disconnect() {
        runtime.close();
    }

    @BeforeEach
    void scope() throws IOException {
        pods = new PodFixture(runtime, Files.createTempDirectory("jkubelet-pull-logs").toString());
    }

    @AfterEach
    void removePulledReferences() {
        pods.removeAll();
        for (String reference : pulled) {
            runtime.removeImage(reference);
        }
    }

    @Test
    void pullFromTheRegistryGivesTheRepoDigestAndTheImageIsThere() {
        String reference = pulling(OPEN + "/jkubelet/busybox:1.0");

        String imageRef = runtime.pullImage(reference, null);

        assertThat(imageRef).startsWith(OPEN + "/jkubelet/busybox@sha256:");
        Image image = runtime.imageStatus(reference).orElseThrow();
        assertThat(image.repoTags()).contains(reference);
        assertThat(image.repoDigests()).contains(imageRef);
        assertThat(runtime.imageStatus(imageRef)).map(Image::id).contains(image.id());
    }

    @Test
    void pullByDigestGivesTheSameDigest() {
        String byTag = runtime.pullImage(pulling(OPEN + "/jkubelet/busybox:1.0"), null);

        String byDigest = runtime.pullImage(pulling(byTag), null);

        assertThat(byDigest).isEqualTo(byTag);
    }

    @Test
    void pullOfATagTheRegistryDoesNotHaveFailsWithTheRegistrysMessage() {
        assertThatThrownBy(() -> runtime.pullImage(OPEN + "/jkubelet/busybox:no-such-tag", null))
                .isInstanceOf(ImagePullException.class)
                .hasMessageContaining("manifest unknown");
    }

    @Test
    void pullFromAnAuthenticatingRegistryWithoutCredentialsIsRefused() {
        assertThatThrownBy(() -> runtime.pullImage(AUTH + "/jkubelet/busybox:1.0", null))
                .isInstanceOf(ImagePullException.class)
                .hasMessageContaining("no basic auth credentials");
    }

    @Test
    void pullWithAWrongPasswordIsRefused() {
        RegistryAuth wrong = new RegistryAuth(USER, "not-the-password", AUTH, null);

        assertThatThrownBy(() -> runtime.pullImage(AUTH + "/jkubelet/busybox:1.0", wrong))
                .isInstanceOf(ImagePullException.class)
                .hasMessageContaining("unauthorized");
    }

    @Test
    void pullWithCredentialsSucceeds() {
        String reference = pulling(AUTH + "/jkubelet/busybox:1.0");

        String imageRef = runtime.pullImage(reference, new RegistryAuth(USER, PASSWORD, AUTH, null));

        assertThat(imageRef).startsWith(AUTH + "/jkubelet/busybox@sha256:");
        assertThat(runtime.imageStatus(reference)).isPresent();
    }

    @Test
    void anAbsentSandboxImageIsPulledBeforeTheSandboxRuns() {
        String pause = pulling(OPEN + "/jkubelet/pause:3.9");
        runtime.removeImage(pause);
        assertThat(runtime.imageStatus(pause)).isEmpty();
        PodSandboxConfig sandbox = pods.sandbox("pulled", c -> new PodSandboxConfig(c.metadata(), c.hostname(),
                c.logDirectory(), c.dnsConfig(), c.portMappings(), c.labels(), c.annotations(), c.cgroupParent(),
                c.namespaceOptions(), c.oomScoreAdj(), pause, c.privileged(), c.sysctls()));

        String id = runtime.runPodSandbox(sandbox);

        assertThat(runtime.podSandboxStatus(id).state()).isEqualTo(PodSandboxState.SANDBOX_READY);
        assertThat(runtime.imageStatus(pause)).isPresent();
    }

    private String pulling(String reference) {
        pulled.add(reference);
        return reference;
    }
}
