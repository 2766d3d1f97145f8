package io.jkubelet.core.credentialprovider;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.jkubelet.core.objects.ObjectException;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.runtime.RegistryAuth;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The keyring's order with credential provider plugins, as upstream v1.30 builds it: the pod's imagePullSecrets first
 * ({@code UnionDockerKeyring}), then one keyring of every node provider ({@code providersDockerKeyring}: the node's
 * config.json, registered as ".dockercfg", and the plugins, asked in the order of their names), in which a more
 * specific location comes first whoever gave it, and for one location the providers' order holds.
 */
class NodeCredentialProvidersTest {
    private static RegistryAuth auth(String user, String location) {
        return new RegistryAuth(user, "pw", location, null);
    }

    private static DockerConfigProvider giving(List<String> asked, String name, Map<String, RegistryAuth> config) {
        return image -> {
            asked.add(name + " " + image);
            return ProvidedCredentials.of(config);
        };
    }

    private static List<String> users(List<RegistryAuth> auths) {
        return auths.stream().map(RegistryAuth::username).toList();
    }

    @Test
    void everyProviderIsAskedForTheRepositoryInTheByteOrderOfTheNames() {
        List<String> asked = new ArrayList<>();
        NodeCredentialProviders providers = new NodeCredentialProviders(giving(asked, ".dockercfg", Map.of()), Map.of(
                "ecr", giving(asked, "ecr", Map.of()),
                "Acr", giving(asked, "Acr", Map.of()),
                "-early", giving(asked, "-early", Map.of())));

        providers.keyring("r.io/team/app");

        assertThat(providers.names()).containsExactly("-early", ".dockercfg", "Acr", "ecr");
        assertThat(asked).containsExactly("-early r.io/team/app", ".dockercfg r.io/team/app", "Acr r.io/team/app",
                "ecr r.io/team/app");
    }

    @Test
    void aMoreSpecificLocationComesFirstThenForOneLocationTheProvidersOrder() {
        List<String> asked = new ArrayList<>();
        NodeCredentialProviders providers = new NodeCredentialProviders(
                giving(asked, ".dockercfg", Map.of("r.io", auth("config.json", "r.io"))), Map.of(
                        "ecr", giving(asked, "ecr", Map.of("r.io", auth("ecr", "r.io"),
                                "r.io/team", auth("ecr-team", "r.io/team"))),
                        "-early", giving(asked, "-early", Map.of("*.io", auth("early-glob", "*.io")))));

        List<RegistryAuth> found = providers.keyring("r.io/team/app").keyring().lookup("r.io/team/app:1");

        // r.io/team, then r.io (config.json before ecr: ".dockercfg" < "ecr"), then *.io.
        assertThat(users(found)).containsExactly("ecr-team", "config.json", "ecr", "early-glob");
    }

    @Test
    void thePodsPullSecretsComeBeforeEveryNodeProvider() {
        String b64 = Base64.getEncoder().encodeToString(("{\"auths\":{\"r.io\":{\"username\":\"secret\",\"password\":"
                + "\"pw\"}}}").getBytes(StandardCharsets.UTF_8));
        PodObjects objects = new PodObjects(null, (ns, name) -> {
            if (!name.equals("regcred")) {
                throw ObjectException.notFound("secret", name);
            }
            return new SecretBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                    .withType("kubernetes.io/dockerconfigjson").withData(Map.of(".dockerconfigjson", b64)).build();
        }, null, null, true);
        List<String> asked = new ArrayList<>();
        NodeCredentialProviders providers = new NodeCredentialProviders(
                giving(asked, ".dockercfg", Map.of("r.io", auth("config.json", "r.io"))),
                Map.of("ecr", giving(asked, "ecr", Map.of("r.io/team", auth("ecr-team", "r.io/team")))));
        Pod pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("default").endMetadata()
                .withNewSpec().addNewImagePullSecret("regcred")
                .withContainers(new ContainerBuilder().withName("c").withImage("r.io/team/app:1").build()).endSpec()
                .build();

        PullCredentials credentials = new PodKeyrings(objects, (ref, type, reason, message) -> {}, providers)
                .lookup(pod, "r.io/team/app:1");

        assertThat(users(credentials.auths())).containsExactly("secret", "ecr-team", "config.json");
        assertThat(credentials.providerFailures()).isEmpty();
    }

    @Test
    void aProviderThatFailsLeavesTheOthersAndIsReported() {
        NodeCredentialProviders providers = new NodeCredentialProviders(
                image -> ProvidedCredentials.of(Map.of("r.io", auth("config.json", "r.io"))),
                Map.of("broken", image -> ProvidedCredentials.failed("broken: exit status 1")));

        NodeCredentialProviders.Keyring keyring = providers.keyring("r.io/app");

        assertThat(users(keyring.keyring().lookup("r.io/app"))).containsExactly("config.json");
        assertThat(keyring.failures()).containsExactly("broken: exit status 1");
    }

    @Test
    void anImageWhoseNameCannotBeReadAsksNoProvider() {
        List<String> asked = new ArrayList<>();
        NodeCredentialProviders providers = new NodeCredentialProviders(giving(asked, ".dockercfg", Map.of()), Map.of());
        PodKeyrings keyrings = new PodKeyrings(PodObjects.standalone(), (ref, type, reason, message) -> {}, providers);

        assertThat(keyrings.lookup(new Pod(), "Not/A:Valid:Image").auths()).isEmpty();
        assertThat(asked).isEmpty();
    }
}
