package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.objects.FakeObjects;
import io.jkubelet.core.runtime.KeyValue;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EnvRefsTest {
    private final NodeContext node = new NodeContext("node-a", List.of("192.168.1.10"), Path.of("/var/log/pods"),
            Path.of("/var/log/containers"), "jkubelet/pause:3.9", List.of(), "cluster.local", x -> x);
    private final FakeObjects objects = new FakeObjects();
    private final List<String> events = new ArrayList<>();
    private final EventRecorder recorder = (ref, type, reason, message) -> events.add(type + " " + reason + " " + message);
    private final ContainerConfigFactory factory = new ContainerConfigFactory(node, (p, c) -> 0, objects.podObjects(), recorder, java.util.Map::of);

    private static Pod pod(Container c) {
        return new PodBuilder().withNewMetadata().withName("web").withNamespace("prod").withUid("u1").endMetadata()
                .withNewSpec().withContainers(c).endSpec().build();
    }

    private List<KeyValue> env(Container c) throws Exception {
        return factory.containerConfig(pod(c), c, 0, "10.0.0.1", Map.of(), null, null, ImageUser.ROOT).envs();
    }

    @Test
    void resourceFieldRefLimitsDefaultToTheNodesAllocatable() throws Exception {
        ContainerConfigFactory onANode = new ContainerConfigFactory(node, (p, c) -> 0, objects.podObjects(), recorder,
                () -> Map.of("cpu", new io.fabric8.kubernetes.api.model.Quantity("2"),
                        "memory", new io.fabric8.kubernetes.api.model.Quantity("4Gi")));
        Container c = new ContainerBuilder().withName("app").withImage("busybox")
                .addNewEnv().withName("CPU").withNewValueFrom().withNewResourceFieldRef().withResource("limits.cpu")
                .endResourceFieldRef().endValueFrom().endEnv()
                .addNewEnv().withName("MEM_MI").withNewValueFrom().withNewResourceFieldRef().withResource("limits.memory")
                .withDivisor(new io.fabric8.kubernetes.api.model.Quantity("1Mi")).endResourceFieldRef().endValueFrom().endEnv()
                .build();
        assertThat(onANode.containerConfig(pod(c), c, 0, "10.0.0.1", Map.of(), null, null, ImageUser.ROOT).envs())
                .contains(new KeyValue("CPU", "2"), new KeyValue("MEM_MI", "4096"));
    }

    @Test
    void envFromWithPrefixThenEnvEntriesOverride() throws Exception {
        Map<String, String> data = new LinkedHashMap<>();
        data.put("MODE", "fast");
        data.put("LEVEL", "3");
        objects.configMap("prod", "settings", data).secret("prod", "creds", Map.of("PASSWORD", "s3cret"));
        Container c = new ContainerBuilder().withName("app").withImage("busybox")
                .addNewEnvFrom().withNewConfigMapRef().withName("settings").endConfigMapRef().endEnvFrom()
                .addNewEnvFrom().withPrefix("DB_").withNewSecretRef().withName("creds").endSecretRef().endEnvFrom()
                .addNewEnv().withName("LEVEL").withValue("9").endEnv()
                .addNewEnv().withName("MSG").withValue("$(MODE)-$(DB_PASSWORD)").endEnv()
                .build();
        assertThat(env(c)).containsExactly(new KeyValue("MODE", "fast"), new KeyValue("LEVEL", "9"),
                new KeyValue("DB_PASSWORD", "s3cret"), new KeyValue("MSG", "fast-s3cret"));
    }

    @Test
    void keyRefsResolveAndOptionalMissingOnesAreLeftOut() throws Exception {
        objects.configMap("prod", "settings", Map.of("mode", "fast")).secret("prod", "creds", Map.of("pw", "s3cret"));
        Container c = new ContainerBuilder().withName("app").withImage("busybox")
                .addNewEnv().withName("MODE").withNewValueFrom().withNewConfigMapKeyRef().withName("settings").withKey("mode")
                .endConfigMapKeyRef().endValueFrom().endEnv()
                .addNewEnv().withName("PW").withNewValueFrom().withNewSecretKeyRef().withName("creds").withKey("pw")
                .endSecretKeyRef().endValueFrom().endEnv()
                .addNewEnv().withName("GONE").withNewValueFrom().withNewConfigMapKeyRef().withName("absent").withKey("k")
                .withOptional(true).endConfigMapKeyRef().endValueFrom().endEnv()
                .addNewEnv().withName("NOKEY").withNewValueFrom().withNewSecretKeyRef().withName("creds").withKey("other")
                .withOptional(true).endSecretKeyRef().endValueFrom().endEnv()
                .addNewEnvFrom().withNewConfigMapRef().withName("absent-too").withOptional(true).endConfigMapRef().endEnvFrom()
                .build();
        assertThat(env(c)).containsExactly(new KeyValue("MODE", "fast"), new KeyValue("PW", "s3cret"));
    }

    @Test
    void missingObjectsAndKeysGiveUpstreamsMessages() {
        objects.configMap("prod", "settings", Map.of("mode", "fast"));
        Container noMap = new ContainerBuilder().withName("app").withImage("busybox")
                .addNewEnv().withName("X").withNewValueFrom().withNewConfigMapKeyRef().withName("absent").withKey("k")
                .endConfigMapKeyRef().endValueFrom().endEnv().build();
        assertThatThrownBy(() -> env(noMap)).isInstanceOf(ContainerConfigFactory.ConfigException.class)
                .hasMessage("configmap \"absent\" not found");
        Container noKey = new ContainerBuilder().withName("app").withImage("busybox")
                .addNewEnv().withName("X").withNewValueFrom().withNewConfigMapKeyRef().withName("settings").withKey("k")
                .endConfigMapKeyRef().endValueFrom().endEnv().build();
        assertThatThrownBy(() -> env(noKey)).hasMessage("couldn't find key k in ConfigMap prod/settings");
        Container noSecret = new ContainerBuilder().withName("app").withImage("busybox")
                .addNewEnvFrom().withNewSecretRef().withName("creds").endSecretRef().endEnvFrom().build();
        assertThatThrownBy(() -> env(noSecret)).hasMessage("secret \"creds\" not found");
        objects.secret("prod", "creds", Map.of("a", "b"));
        Container noSecretKey = new ContainerBuilder().withName("app").withImage("busybox")
                .addNewEnv().withName("X").withNewValueFrom().withNewSecretKeyRef().withName("creds").withKey("k")
                .endSecretKeyRef().endValueFrom().endEnv().build();
        assertThatThrownBy(() -> env(noSecretKey)).hasMessage("couldn't find key k in Secret prod/creds");
    }

    @Test
    void envFromSkipsInvalidNamesWithAnEvent() throws Exception {
        objects.configMap("prod", "settings", Map.of("GOOD", "1", "BAD=NAME", "2", "ALSO=BAD", "3"));
        Container c = new ContainerBuilder().withName("app").withImage("busybox")
                .addNewEnvFrom().withNewConfigMapRef().withName("settings").endConfigMapRef().endEnvFrom().build();
        assertThat(env(c)).containsExactly(new KeyValue("GOOD", "1"));
        assertThat(events).containsExactly("Warning InvalidEnvironmentVariableNames Keys [ALSO=BAD, BAD=NAME] from the "
                + "EnvFrom configMap prod/settings were skipped since they are considered invalid environment variable names.");
    }
}
