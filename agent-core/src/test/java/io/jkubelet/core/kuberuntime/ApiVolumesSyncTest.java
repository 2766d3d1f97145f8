package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.kuberuntime.testing.FakePodStates;
import io.jkubelet.core.prober.ProbeVerdicts;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.images.ImageManager;
import io.jkubelet.core.cluster.fabric8.Fabric8ObjectClient;
import io.jkubelet.core.objects.ApiObjectManagers;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.objects.PersistentVolumeClient;
import io.jkubelet.core.volumemanager.ManualVolumeManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.jkubelet.core.testing.Pods.container;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * configMap and secret volumes and env references of pods run by the runtime manager after the volume manager mounted
 * their volumes, with the objects in fabric8's mock apiserver (CRUD mode) read through the same managers a node with
 * {@code --kubeconfig} uses.
 */
class ApiVolumesSyncTest {
    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final LoggingEventRecorder events = new LoggingEventRecorder(clock);
    private KubernetesMockServer server;
    private KubernetesClient client;
    private RuntimeManager manager;
    private ManualVolumeManager volumes;

    @BeforeEach
    void setUp() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init();
        client = server.createClient();
        runtime.addImage("busybox:1.36");
        runtime.addImage("jkubelet/pause:3.9");
        NodeContext node = new NodeContext("node-a", List.of("192.168.1.10"), root.resolve("logs/pods"),
                root.resolve("logs/containers"), "jkubelet/pause:3.9", List.of(), "cluster.local", x -> Math.max(x, 0));
        PodDirs dirs = new PodDirs(root.resolve("kubelet"));
        PodObjects objects = ApiObjectManagers.podObjects(new Fabric8ObjectClient(client), clock, io.jkubelet.core.objects.ServiceLister.NONE);
        volumes = new ManualVolumeManager(dirs, new ApiVolumes(objects, "node-a", node::hostIps, clock),
                PersistentVolumeClient.STANDALONE, events);
        manager = new RuntimeManager(runtime, new ImageManager(runtime, events, clock, true),
                new ContainerConfigFactory(node, (p, c) -> 0, objects, events, java.util.Map::of), volumes.manager()::getMountedVolumesForPod, dirs, node,
                events, clock, (action, c, host, timeout) -> { }, new FakePodStates(),
                io.jkubelet.core.runtimeclass.RuntimeClassManager.standalone());
    }

    @AfterEach
    void tearDown() {
        volumes.cleanupPod("uid-web");
        client.close();
        server.destroy();
    }

    private Pod pod() {
        return new PodBuilder().withNewMetadata().withName("web").withNamespace("default").withUid("uid-web").endMetadata()
                .withNewSpec().withContainers(new io.fabric8.kubernetes.api.model.ContainerBuilder(container("app"))
                        .addNewVolumeMount().withName("config").withMountPath("/etc/config").endVolumeMount()
                        .addNewVolumeMount().withName("creds").withMountPath("/etc/creds").endVolumeMount()
                        .addNewEnv().withName("MODE").withNewValueFrom().withNewConfigMapKeyRef().withName("settings")
                        .withKey("mode").endConfigMapKeyRef().endValueFrom().endEnv().build())
                .addNewVolume().withName("config").withNewConfigMap().withName("settings").endConfigMap().endVolume()
                .addNewVolume().withName("creds").withNewSecret().withSecretName("db").withDefaultMode(0400)
                .addNewItem().withKey("password").withPath("db/password").endItem().endSecret().endVolume()
                .endSpec().build();
    }

    private void createConfigMap(String mode) {
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("settings")
                .endMetadata().withData(Map.of("mode", mode, "game.properties", "lives=3")).build()).createOr(r -> r.update());
    }

    private void createSecret() {
        client.secrets().inNamespace("default").resource(new SecretBuilder().withNewMetadata().withName("db").endMetadata()
                .withData(Map.of("password", Base64.getEncoder().encodeToString("s3cret".getBytes(StandardCharsets.UTF_8)),
                        "user", Base64.getEncoder().encodeToString("admin".getBytes(StandardCharsets.UTF_8))))
                .build()).create();
    }

    /** The pod's sync: its volumes first (upstream's WaitForAttachAndMount), then the runtime manager. */
    private SyncResult sync(Pod pod) {
        try {
            volumes.mountVolumes(pod);
        } catch (VolumeException e) {
            SyncResult failed = new SyncResult();
            failed.fail(e.getMessage());
            return failed;
        }
        var status = manager.getPodStatus(pod.getMetadata().getUid(), pod.getMetadata().getName(), "default");
        return manager.syncPod(pod, status, ProbeVerdicts.NONE);
    }

    private Path volume(String plugin, String name) {
        return root.resolve("kubelet/pods/uid-web/volumes/" + plugin + "/" + name);
    }

    @Test
    void volumesAndEnvComeFromTheApiserverAndUpdatesReachTheFiles() throws Exception {
        createConfigMap("fast");
        createSecret();
        Pod pod = pod();
        assertThat(sync(pod).failed()).isFalse();

        Path config = volume("kubernetes.io~configmap", "config");
        assertThat(Files.readString(config.resolve("mode"))).isEqualTo("fast");
        assertThat(Files.readString(config.resolve("game.properties"))).isEqualTo("lives=3");
        Path creds = volume("kubernetes.io~secret", "creds");
        assertThat(Files.readString(creds.resolve("db/password"))).isEqualTo("s3cret");
        assertThat(creds.resolve("user")).doesNotExist();
        // A secret never reaches the disk: its volume is a tmpfs, a configMap's is not.
        assertThat(Files.readAllLines(Path.of("/proc/self/mountinfo")))
                .anyMatch(l -> l.contains(" " + creds + " ") && l.contains("tmpfs"))
                .noneMatch(l -> l.contains(" " + config + " "));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(creds.resolve("db/password"))))
                .isEqualTo("r--------");
        var c = runtime.listContainers(null).get(0);
        var cfg = runtime.containerConfig(c.id());
        assertThat(cfg.envs()).extracting(kv -> kv.key() + "=" + kv.value()).contains("MODE=fast");
        // Mounted read-only although the pod did not ask: the kubelet owns these files.
        assertThat(cfg.mounts()).extracting(Mount::containerPath, Mount::hostPath, Mount::readOnly)
                .contains(org.assertj.core.groups.Tuple.tuple("/etc/config", config.toString(), true),
                        org.assertj.core.groups.Tuple.tuple("/etc/creds", creds.toString(), true));

        // The object changes; the next sync after the cache's TTL writes it, the container keeps running.
        createConfigMap("slow");
        clock.advance(ApiObjectManagers.defaultTtl().plusSeconds(1));
        assertThat(sync(pod).failed()).isFalse();
        assertThat(Files.readString(config.resolve("mode"))).isEqualTo("slow");
        assertThat(runtime.listContainers(null)).hasSize(1);
        try (var s = Files.list(config)) {
            assertThat(s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("..2"))).hasSize(1);
        }
    }

    @Test
    void aMissingConfigMapFailsTheMountWithUpstreamsEventUntilItExists() throws Exception {
        createSecret();
        Pod pod = pod();
        SyncResult r = sync(pod);
        assertThat(r.failed()).isTrue();
        assertThat(events.events()).anySatisfy(e -> {
            assertThat(e.reason()).isEqualTo("FailedMount");
            assertThat(e.type()).isEqualTo("Warning");
            assertThat(e.message()).isEqualTo("MountVolume.SetUp failed for volume \"config\" : configmap \"settings\" not found");
        });
        assertThat(runtime.listContainers(null)).isEmpty();

        createConfigMap("fast");
        assertThat(sync(pod).failed()).isFalse();
        assertThat(runtime.listContainers(null)).hasSize(1);
        assertThat(Files.readString(volume("kubernetes.io~configmap", "config").resolve("mode"))).isEqualTo("fast");
    }

    @Test
    void aMissingEnvKeyIsACreateContainerConfigErrorRetriedLater() throws Exception {
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("settings")
                .endMetadata().withData(Map.of("other", "x")).build()).create();
        createSecret();
        Pod pod = pod();
        SyncResult r = sync(pod);
        assertThat(r.starts()).anySatisfy(s -> {
            assertThat(s.reason()).isEqualTo(RuntimeManager.CREATE_CONTAINER_CONFIG_ERROR);
            assertThat(s.message()).isEqualTo("couldn't find key mode in ConfigMap default/settings");
        });
        assertThat(events.events()).anySatisfy(e -> assertThat(e.message())
                .isEqualTo("Error: couldn't find key mode in ConfigMap default/settings"));

        createConfigMap("fast");
        clock.advance(ApiObjectManagers.defaultTtl().plusSeconds(1));
        sync(pod);
        assertThat(runtime.listContainers(null)).hasSize(1);
    }
}
