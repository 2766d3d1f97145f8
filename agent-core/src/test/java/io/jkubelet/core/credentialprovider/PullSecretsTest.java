package io.jkubelet.core.credentialprovider;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.images.ImageManager;
import io.jkubelet.core.images.ImagePullLimits;
import io.jkubelet.core.objects.ObjectException;
import io.jkubelet.core.runtime.RegistryAuth;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PullSecretsTest {
    private final List<String> events = new ArrayList<>();
    private final EventRecorder recorder = (ref, type, reason, message) -> events.add(type + " " + reason + " " + message);

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private final PullSecrets pullSecrets = new PullSecrets((ns, name) -> switch (name) {
        case "regcred" -> new SecretBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                .withType("kubernetes.io/dockerconfigjson")
                .withData(Map.of(".dockerconfigjson", b64("{\"auths\":{\"localhost:5000\":{\"auth\":\"" + b64("alice:pw") + "\"}}}")))
                .build();
        case "legacy" -> new SecretBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                .withType("kubernetes.io/dockercfg")
                .withData(Map.of(".dockercfg", b64("{\"quay.io\":{\"username\":\"bob\",\"password\":\"pw2\"}}")))
                .build();
        default -> throw ObjectException.notFound("secret", name);
    }, recorder);

    private static Pod pod(String image, String... secrets) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("p").withNamespace("default").withUid("u").endMetadata()
                .withNewSpec().withContainers(new ContainerBuilder().withName("c").withImage(image).build()).endSpec();
        for (String s : secrets) {
            b.editSpec().addNewImagePullSecret(s).endSpec();
        }
        return b.build();
    }

    @Test
    void theMatchingCredentialReachesThePull() throws Exception {
        FakeClock clock = new FakeClock();
        FakeRuntime runtime = new FakeRuntime(clock);
        runtime.makePullable("localhost:5000/team/app:1");
        ImageManager images = new ImageManager(runtime, recorder, clock, ImagePullLimits.SERIAL, PodKeyring.of(pullSecrets::keyring));
        Pod pod = pod("localhost:5000/team/app:1", "missing", "legacy", "regcred");
        images.ensureImageExists(pod, pod.getSpec().getContainers().get(0), null);
        assertThat(runtime.pullAuths()).containsExactly(new RegistryAuth("alice", "pw", "localhost:5000", null));
        assertThat(events).contains("Warning FailedToRetrieveImagePullSecret Unable to retrieve some image pull secrets "
                + "(missing); attempting to pull the image may not succeed.");
    }

    @Test
    void anImageNoSecretMatchesIsPulledAnonymously() throws Exception {
        FakeClock clock = new FakeClock();
        FakeRuntime runtime = new FakeRuntime(clock);
        runtime.makePullable("ghcr.io/x/app:1");
        ImageManager images = new ImageManager(runtime, recorder, clock, ImagePullLimits.SERIAL, PodKeyring.of(pullSecrets::keyring));
        Pod pod = pod("ghcr.io/x/app:1", "regcred", "legacy");
        images.ensureImageExists(pod, pod.getSpec().getContainers().get(0), null);
        assertThat(runtime.pullAuths()).containsExactly((RegistryAuth) null);
        assertThat(pullSecrets.keyring(pod).lookup("quay.io/org/img").get(0).username()).isEqualTo("bob");
    }

    @Test
    void theNodesOwnCredentialsAreTriedAfterThePodsPullSecrets() {
        FakeClock clock = new FakeClock();
        FakeRuntime runtime = new FakeRuntime(clock);
        runtime.failPull("localhost:5000/team/app:1", "unauthorized: authentication required");
        DockerKeyring node = DockerKeyring.EMPTY.with(Map.of("localhost:5000", new RegistryAuth("node", "npw", "localhost:5000", null)));
        ImageManager images = new ImageManager(runtime, recorder, clock, ImagePullLimits.SERIAL,
                PodKeyring.of(p -> pullSecrets.keyring(p).union(node)));
        Pod pod = pod("localhost:5000/team/app:1", "regcred");

        assertThatThrownBy(() -> images.ensureImageExists(pod, pod.getSpec().getContainers().get(0), null))
                .hasMessageContaining("[unauthorized: authentication required, unauthorized: authentication required]");
        assertThat(runtime.pullAuths()).containsExactly(new RegistryAuth("alice", "pw", "localhost:5000", null),
                new RegistryAuth("node", "npw", "localhost:5000", null));
    }
}
