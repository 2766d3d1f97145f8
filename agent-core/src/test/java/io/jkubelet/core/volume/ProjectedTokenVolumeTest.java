package io.jkubelet.core.volume;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestSpec;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.jkubelet.core.cluster.fabric8.Fabric8ObjectClient;
import io.jkubelet.core.objects.ApiObjectManagers;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.objects.PersistentVolumeClient;
import io.jkubelet.core.volumemanager.ManualVolumeManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Projected volumes with service account tokens from the TokenRequest API, against fabric8's mock apiserver with
 * scripted answers (its CRUD mode has no {@code serviceaccounts/<name>/token} subresource).
 */
class ProjectedTokenVolumeTest {
    private static final String TOKEN_PATH = "/api/v1/namespaces/shop/serviceaccounts/builder/token";
    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private KubernetesMockServer server;
    private KubernetesClient client;
    private ManualVolumeManager volumes;

    @BeforeEach
    void setUp() {
        server = new KubernetesMockServer(false);
        server.init();
        client = server.createClient();
        PodDirs dirs = new PodDirs(root);
        volumes = new ManualVolumeManager(dirs, new ApiVolumes(ApiObjectManagers.podObjects(new Fabric8ObjectClient(client), clock,
                io.jkubelet.core.objects.ServiceLister.NONE), "node-a", () -> List.of("192.168.1.10"), clock),
                PersistentVolumeClient.STANDALONE, new LoggingEventRecorder(clock));
    }

    @AfterEach
    void tearDown() {
        volumes.cleanupPod("uid-web");
        client.close();
        server.destroy();
    }

    private TokenRequest answer(String token, long seconds) {
        TokenRequest tr = new TokenRequest();
        TokenRequestSpec spec = new TokenRequestSpec();
        spec.setExpirationSeconds(seconds);
        tr.setSpec(spec);
        TokenRequestStatus st = new TokenRequestStatus();
        st.setToken(token);
        st.setExpirationTimestamp(clock.instant().plusSeconds(seconds).toString());
        tr.setStatus(st);
        return tr;
    }

    private static Pod kubeApiAccessPod() {
        return withVolumes(new VolumeBuilder().withName("kube-api-access-x7k2p").withNewProjected().withDefaultMode(0644)
                .addNewSource().withNewServiceAccountToken().withExpirationSeconds(3607L).withPath("token").endServiceAccountToken().endSource()
                .addNewSource().withNewConfigMap().withName("kube-root-ca.crt").addNewItem().withKey("ca.crt").withPath("ca.crt").endItem().endConfigMap().endSource()
                .addNewSource().withNewDownwardAPI().addNewItem().withPath("namespace").withNewFieldRef().withApiVersion("v1")
                .withFieldPath("metadata.namespace").endFieldRef().endItem().endDownwardAPI().endSource()
                .endProjected().build(), vaultToken());
    }

    private static Volume vaultToken() {
        return new VolumeBuilder().withName("vault-token").withNewProjected()
                .addNewSource().withNewServiceAccountToken().withAudience("vault").withPath("vault/token").endServiceAccountToken().endSource()
                .endProjected().build();
    }

    /** The pod with these volumes, each mounted by its one container. */
    private static Pod withVolumes(Volume... volumes) {
        var app = new ContainerBuilder().withName("app").withImage("busybox");
        for (Volume v : volumes) {
            app.addNewVolumeMount().withName(v.getName()).withMountPath("/" + v.getName()).endVolumeMount();
        }
        return new PodBuilder().withNewMetadata().withName("web").withNamespace("shop").withUid("uid-web").endMetadata()
                .withNewSpec().withServiceAccountName("builder").withContainers(app.build()).withVolumes(volumes)
                .endSpec().build();
    }

    private List<JsonNode> tokenRequests() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        RecordedRequest r;
        while ((r = server.takeRequest(10, TimeUnit.MILLISECONDS)) != null) {
            if (r.getPath().equals(TOKEN_PATH) && r.getMethod().equals("POST")) {
                out.add(new ObjectMapper().readTree(r.getBody().readUtf8()));
            }
        }
        return out;
    }

    @Test
    void theKubeApiAccessVolumeGetsABoundTokenTheRootCaAndTheNamespace() throws Exception {
        server.expect().get().withPath("/api/v1/namespaces/shop/configmaps/kube-root-ca.crt")
                .andReturn(200, new ConfigMapBuilder().withNewMetadata().withName("kube-root-ca.crt").withNamespace("shop")
                        .endMetadata().addToData("ca.crt", "-----BEGIN CERTIFICATE-----\n").build()).always();
        server.expect().post().withPath(TOKEN_PATH).andReturn(201, answer("tok-default", 3607)).once();
        server.expect().post().withPath(TOKEN_PATH).andReturn(201, answer("tok-vault", 3600)).once();

        var paths = volumes.mountVolumes(kubeApiAccessPod());

        Path dir = paths.get("kube-api-access-x7k2p");
        assertThat(dir).isEqualTo(root.resolve("pods/uid-web/volumes/kubernetes.io~projected/kube-api-access-x7k2p"));
        assertThat(Files.readString(dir.resolve("token"))).isEqualTo("tok-default");
        assertThat(Files.readString(dir.resolve("ca.crt"))).startsWith("-----BEGIN CERTIFICATE-----");
        assertThat(Files.readString(dir.resolve("namespace"))).isEqualTo("shop");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("token")))).isEqualTo("rw-r--r--");
        assertThat(Files.readString(paths.get("vault-token").resolve("vault/token"))).isEqualTo("tok-vault");

        List<JsonNode> sent = tokenRequests();
        assertThat(sent).hasSize(2);
        JsonNode first = sent.get(0).path("spec");
        assertThat(first.path("expirationSeconds").asLong()).isEqualTo(3607);
        assertThat(first.path("audiences").size()).isZero();
        assertThat(first.path("boundObjectRef").path("kind").asText()).isEqualTo("Pod");
        assertThat(first.path("boundObjectRef").path("name").asText()).isEqualTo("web");
        assertThat(first.path("boundObjectRef").path("uid").asText()).isEqualTo("uid-web");
        JsonNode second = sent.get(1).path("spec");
        assertThat(second.path("audiences").get(0).asText()).isEqualTo("vault");
        assertThat(second.path("expirationSeconds").asLong()).isEqualTo(3600);
    }

    @Test
    void tokensAreCachedAndRotatedAfterEightyPercentOfTheirTtl() throws Exception {
        Pod pod = withVolumes(vaultToken());
        server.expect().post().withPath(TOKEN_PATH).andReturn(201, answer("tok-1", 3600)).once();
        Path file = volumes.mountVolumes(pod).get("vault-token").resolve("vault/token");
        assertThat(Files.readString(file)).isEqualTo("tok-1");

        clock.advance(Duration.ofSeconds(2880)); // exactly 80%: still fresh
        volumes.remountVolumes(pod);
        assertThat(tokenRequests()).hasSize(1);

        clock.advance(Duration.ofSeconds(1));
        server.expect().post().withPath(TOKEN_PATH).andReturn(201, answer("tok-2", 3600)).once();
        volumes.remountVolumes(pod);
        assertThat(Files.readString(file)).isEqualTo("tok-2");
        assertThat(tokenRequests()).hasSize(1);
    }

    @Test
    void aRefusedTokenRequestFailsTheMountNamingTheVolume() {
        server.expect().post().withPath(TOKEN_PATH).andReturn(403, new io.fabric8.kubernetes.api.model.StatusBuilder()
                .withStatus("Failure").withCode(403).withReason("Forbidden")
                .withMessage("serviceaccounts \"builder\" is forbidden: no relationship found").build()).always();
        Pod pod = withVolumes(vaultToken());
        assertThatThrownBy(() -> volumes.mountVolumes(pod)).isInstanceOf(VolumeException.class)
                .hasMessageStartingWith("MountVolume.SetUp failed for volume \"vault-token\" : failed to fetch token: ")
                .hasMessageContaining("no relationship found");
    }
}
