package io.jkubelet.core.credentialprovider.plugin;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.credentialprovider.DockerConfigFiles;
import io.jkubelet.core.credentialprovider.NodeCredentialProviders;
import io.jkubelet.core.credentialprovider.NodeKeyring;
import io.jkubelet.core.credentialprovider.PodKeyrings;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.images.ImageManager;
import io.jkubelet.core.images.ImagePullLimits;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.runtime.RegistryAuth;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.jkubelet.core.credentialprovider.plugin.PluginScripts.V1;
import static io.jkubelet.core.credentialprovider.plugin.PluginScripts.V1BETA1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Pulls through the image manager with credential provider plugins as real processes: a plugin's credentials reach
 * the runtime, its cache spares a second run, and a plugin that fails, hangs, prints junk or answers another
 * apiVersion is named in the pull's error (ErrImagePull and its event) while other images pull as before.
 */
class CredentialProviderPullTest {
    @TempDir Path dir;
    private Path bin;
    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final List<String> events = new ArrayList<>();
    private final EventRecorder recorder = (ref, type, reason, message) -> events.add(reason + " " + message);

    @BeforeEach
    void binDir() throws Exception {
        bin = Files.createDirectories(dir.resolve("bin"));
    }

    /** The image manager of a node with these providers, each {@code name matchImage apiVersion}. */
    private ImageManager node(Duration pluginTimeout, String... providers) throws Exception {
        StringBuilder config = new StringBuilder("""
                apiVersion: kubelet.config.k8s.io/v1
                kind: CredentialProviderConfig
                providers:
                """);
        for (String p : providers) {
            String[] f = p.split(" ");
            config.append("""
                    - name: %s
                      matchImages: ["%s"]
                      defaultCacheDuration: 10m
                      apiVersion: %s
                    """.formatted(f[0], f[1], f[2]));
        }
        Path file = Files.writeString(dir.resolve("providers.yaml"), config);
        Map<String, PluginProvider> plugins = CredentialProviderPlugins.register(
                new CredentialProviderPlugins.Flags(file.toString(), bin.toString()), clock, pluginTimeout);
        NodeCredentialProviders nodeProviders = new NodeCredentialProviders(
                NodeKeyring.of(DockerConfigFiles.SearchPaths.NONE, clock), plugins);
        return new ImageManager(runtime, recorder, clock, ImagePullLimits.SERIAL,
                new PodKeyrings(PodObjects.standalone(), recorder, nodeProviders));
    }

    private static Pod pod(String image) {
        Container c = new ContainerBuilder().withName("c").withImage(image).withImagePullPolicy("Always").build();
        return new PodBuilder().withNewMetadata().withName("p").withNamespace("default").withUid("u").endMetadata()
                .withNewSpec().withContainers(c).endSpec().build();
    }

    private static String pull(ImageManager images, String image) throws ImageManager.ImageException {
        Pod pod = pod(image);
        return images.ensureImageExists(pod, pod.getSpec().getContainers().getFirst(), null);
    }

    @Test
    void thePluginsCredentialsPullAPrivateImageAndItsCacheSparesTheSecondRun() throws Exception {
        runtime.makePullableWith("registry.example.com/team/app:1", "jk", "token-1");
        PluginScripts.answering(bin, "tokens", PluginScripts.response(V1, "Registry", "5m",
                "registry.example.com", "jk", "token-1"));
        ImageManager images = node(ExecPlugin.TIMEOUT, "tokens *.example.com " + V1);

        pull(images, "registry.example.com/team/app:1");
        clock.advance(Duration.ofMinutes(4));
        pull(images, "registry.example.com/team/app:1");

        assertThat(runtime.pullAuths()).containsExactly(
                new RegistryAuth("jk", "token-1", "registry.example.com", null),
                new RegistryAuth("jk", "token-1", "registry.example.com", null));
        assertThat(PluginScripts.runs(bin, "tokens")).isEqualTo(1);
        assertThat(PluginScripts.request(bin, "tokens")).contains("\"image\":\"registry.example.com/team/app\"");
    }

    @Test
    void aFailingPluginIsNamedInErrImagePullAndCostsNothingElse() throws Exception {
        runtime.makePullableWith("private.example.com/app:1", "jk", "pw");
        runtime.makePullable("public.example.com/app:1");
        PluginScripts.script(bin, "broken", "cat >/dev/null; echo 'no token: expired session' >&2; exit 1");
        ImageManager images = node(ExecPlugin.TIMEOUT, "broken *.example.com " + V1);

        assertThatThrownBy(() -> pull(images, "private.example.com/app:1"))
                .isInstanceOf(ImageManager.ImageException.class)
                .satisfies(e -> assertThat(((ImageManager.ImageException) e).reason()).isEqualTo("ErrImagePull"))
                .hasMessage("Failed to pull image \"private.example.com/app:1\": Head \"https://private.example.com/app\":"
                        + " no basic auth credentials; Failed getting credential from external registry credential"
                        + " provider broken: error execing credential provider plugin broken for image"
                        + " private.example.com/app: exit status 1: no token: expired session");
        assertThat(events).contains("Failed Failed to pull image \"private.example.com/app:1\": Head"
                + " \"https://private.example.com/app\": no basic auth credentials; Failed getting credential from"
                + " external registry credential provider broken: error execing credential provider plugin broken for"
                + " image private.example.com/app: exit status 1: no token: expired session");

        // The plugin fails for this image too; the image needs no credentials, so the pull goes on without.
        assertThat(pull(images, "public.example.com/app:1")).startsWith("sha256:");
    }

    @Test
    void aPluginThatHangsPrintsJunkOrAnswersAnotherVersionIsNamedEachInItsWords() throws Exception {
        runtime.makePullableWith("hang.example.com/app:1", "jk", "pw");
        runtime.makePullableWith("junk.example.com/app:1", "jk", "pw");
        runtime.makePullableWith("beta.example.com/app:1", "jk", "pw");
        runtime.makePullable("other.registry.io/app:1");
        PluginScripts.script(bin, "hangs", "sleep 600");
        PluginScripts.script(bin, "junk", "cat >/dev/null; echo '<html>502 Bad Gateway</html>'");
        PluginScripts.answering(bin, "beta", PluginScripts.response(V1BETA1, "Image", null,
                "beta.example.com", "jk", "pw"));
        ImageManager images = node(Duration.ofMillis(500), "hangs hang.example.com " + V1,
                "junk junk.example.com " + V1, "beta beta.example.com " + V1);

        assertThatThrownBy(() -> pull(images, "hang.example.com/app:1")).hasMessageEndingWith(
                "; Failed getting credential from external registry credential provider hangs: error execing"
                        + " credential provider plugin hangs for image hang.example.com/app: context deadline exceeded: ");
        assertThatThrownBy(() -> pull(images, "junk.example.com/app:1")).hasMessageContaining(
                "; Failed getting credential from external registry credential provider junk: error reading GVK from"
                        + " response: couldn't get version/kind; json parse error: ");
        assertThatThrownBy(() -> pull(images, "beta.example.com/app:1")).hasMessageEndingWith(
                "; Failed getting credential from external registry credential provider beta: apiVersion from"
                        + " credential plugin response did not match expected apiVersion:credentialprovider.kubelet.k8s.io/v1,"
                        + " actual apiVersion:credentialprovider.kubelet.k8s.io/v1beta1");

        // None of them is asked for an image no matchImages matches, and that pull is as before.
        assertThat(pull(images, "other.registry.io/app:1")).startsWith("sha256:");
        assertThat(runtime.pullAuths().getLast()).isNull();
    }
}
