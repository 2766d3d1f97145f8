package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestStatus;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.objects.FakeObjects;
import io.jkubelet.core.objects.PersistentVolumeClient;
import io.jkubelet.core.objects.TokenManager;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.volumemanager.ManualVolumeManager;
import org.junit.jupiter.api.AfterEach;
import io.jkubelet.core.testing.PlainTempDir;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The pod's {@code securityContext.fsGroup} on the volumes upstream gives it to, as its containers see them (links
 * followed, as a container's {@code stat -L} and its reads do): emptyDir on disk and in memory, and the files the
 * kubelet writes for configMap, secret, downwardAPI and projected volumes; the same volumes of a pod without one stay
 * root's. Mounted through the real volume manager, as root (tmpfs mounts, other groups).
 */
class FsGroupVolumesTest {
    private static final long FS_GROUP = 4321;

    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private final LoggingEventRecorder events = new LoggingEventRecorder(clock);
    private final FakeObjects objects = new FakeObjects()
            .configMap("shop", "settings", Map.of("mode", "fast"))
            .secret("shop", "creds", Map.of("password", "s3cret"));
    private final List<String> pods = new ArrayList<>();
    private ManualVolumeManager volumes;

    @BeforeEach
    void aNodeWithTheApiserversObjects() {
        assumeTrue("root".equals(System.getProperty("user.name")), "tmpfs mounts and other groups need root");
        PlainTempDir.of(root);
        volumes = manager();
    }

    private ManualVolumeManager manager() {
        TokenManager tokens = new TokenManager((ns, sa, request) -> {
            TokenRequest answer = new TokenRequest();
            TokenRequestStatus status = new TokenRequestStatus();
            status.setToken("tok-" + sa);
            status.setExpirationTimestamp(clock.instant().plusSeconds(3600).toString());
            answer.setStatus(status);
            return answer;
        }, clock);
        return new ManualVolumeManager(new PodDirs(root), new ApiVolumes(objects.podObjects(tokens), "node-a",
                () -> List.of("192.168.1.10"), clock), PersistentVolumeClient.STANDALONE, events);
    }

    @AfterEach
    void podsGo() {
        if (volumes != null) {
            pods.forEach(volumes::cleanupPod); // unmounts the tmpfs volumes
        }
    }

    /** A pod whose one container mounts every volume, with {@code fsGroup} when it is not null. */
    private Pod pod(String uid, Long fsGroup, Volume... vs) {
        var app = new ContainerBuilder().withName("app").withImage("busybox");
        for (Volume v : vs) {
            app.addNewVolumeMount().withName(v.getName()).withMountPath("/" + v.getName()).endVolumeMount();
        }
        pods.add(uid);
        return new PodBuilder().withNewMetadata().withName("web-" + uid).withNamespace("shop").withUid(uid).endMetadata()
                .withNewSpec().withServiceAccountName("builder").withNewSecurityContext().withFsGroup(fsGroup)
                .endSecurityContext().withContainers(app.build()).withVolumes(vs).endSpec().build();
    }

    private static Volume emptyDir(String name, String medium) {
        return new VolumeBuilder().withName(name).withNewEmptyDir().withMedium(medium).endEmptyDir().build();
    }

    private static Volume configMap(Integer defaultMode) {
        return new VolumeBuilder().withName("settings").withNewConfigMap().withName("settings")
                .withDefaultMode(defaultMode).endConfigMap().build();
    }

    private static Volume secret() {
        return new VolumeBuilder().withName("creds").withNewSecret().withSecretName("creds").withDefaultMode(0400)
                .endSecret().build();
    }

    private static Volume downwardApi() {
        return new VolumeBuilder().withName("info").withNewDownwardAPI().addNewItem().withPath("name").withNewFieldRef()
                .withFieldPath("metadata.name").endFieldRef().endItem().endDownwardAPI().build();
    }

    private static Volume projected() {
        return new VolumeBuilder().withName("all").withNewProjected()
                .addNewSource().withNewConfigMap().withName("settings").endConfigMap().endSource()
                .addNewSource().withNewServiceAccountToken().withPath("token").endServiceAccountToken().endSource()
                .endProjected().build();
    }

    /** The group and permission bits (setgid and sticky too) of what {@code p} names, links followed. */
    private static String stat(Path p) throws IOException {
        return Files.getAttribute(p, "unix:gid") + " " + Integer.toOctalString((Integer) Files.getAttribute(p, "unix:mode") & 07777);
    }

    @Test
    void anEmptyDirIsTheFsGroupsWithSetgidSoThatWhatContainersMakeInItIsTheGroupsToo() throws Exception {
        Map<String, Path> paths = volumes.mountVolumes(pod("u-1", FS_GROUP, emptyDir("cache", null), emptyDir("shm", "Memory")));
        assertThat(stat(paths.get("cache"))).isEqualTo(FS_GROUP + " 2777");
        assertThat(stat(paths.get("shm"))).as("a tmpfs root is sticky").isEqualTo(FS_GROUP + " 3777");
        Path made = Files.writeString(paths.get("cache").resolve("made-by-a-container"), "x");
        assertThat(Files.getAttribute(made, "unix:gid")).isEqualTo((int) FS_GROUP);

        Map<String, Path> none = volumes.mountVolumes(pod("u-2", null, emptyDir("cache", null), emptyDir("shm", "Memory")));
        assertThat(stat(none.get("cache"))).isEqualTo("0 777");
        assertThat(stat(none.get("shm"))).isEqualTo("0 1777");
    }

    @Test
    void aHostPathIsLeftAsTheHostHasIt() throws Exception {
        Path host = Files.createDirectories(root.resolve("host-dir"));
        Files.setAttribute(host, "unix:mode", 0755);
        Volume hostPath = new VolumeBuilder().withName("host").withNewHostPath().withPath(host.toString()).endHostPath().build();
        assertThat(volumes.mountVolumes(pod("u-1", FS_GROUP, hostPath)).get("host")).isEqualTo(host);
        assertThat(stat(host)).isEqualTo("0 755");
    }

    @Test
    void aRestartedKubeletLeavesWhatThePodMadeInItsEmptyDirAsItIs() throws Exception {
        Pod pod = pod("u-1", FS_GROUP, emptyDir("cache", null));
        Path cache = volumes.mountVolumes(pod).get("cache");
        // A container's own file, root's group and private.
        Path own = Files.writeString(cache.resolve("own"), "x");
        Files.setAttribute(own, "unix:gid", 0);
        Files.setAttribute(own, "unix:mode", 0600);

        ManualVolumeManager restarted = manager();
        restarted.reconstruct();
        assertThat(restarted.mountVolumes(pod).get("cache")).isEqualTo(cache);
        assertThat(stat(own)).isEqualTo("0 600");
        assertThat(stat(cache)).isEqualTo(FS_GROUP + " 2777");
    }

    @Test
    void theFilesOfConfigMapSecretDownwardApiAndProjectedVolumesGetTheGroupsRead() throws Exception {
        Map<String, Path> paths = volumes.mountVolumes(pod("u-1", FS_GROUP, configMap(null), secret(), downwardApi(), projected()));

        assertThat(stat(paths.get("settings").resolve("mode"))).isEqualTo(FS_GROUP + " 644");
        assertThat(stat(paths.get("creds").resolve("password"))).as("defaultMode 0400").isEqualTo(FS_GROUP + " 440");
        assertThat(stat(paths.get("info").resolve("name"))).isEqualTo(FS_GROUP + " 644");
        assertThat(stat(paths.get("all").resolve("mode"))).isEqualTo(FS_GROUP + " 644");
        assertThat(stat(paths.get("all").resolve("token"))).as("the token is the owner's and the group's only")
                .isEqualTo(FS_GROUP + " 640");
        assertThat(Files.readString(paths.get("all").resolve("token"))).isEqualTo("tok-builder");
        // The directories: the root setgid (a tmpfs's also sticky), each version's searchable by the group.
        assertThat(stat(paths.get("settings"))).isEqualTo(FS_GROUP + " 2777");
        assertThat(stat(paths.get("creds"))).isEqualTo(FS_GROUP + " 3777");
        assertThat(stat(paths.get("settings").resolve("..data"))).isEqualTo(FS_GROUP + " 2755");

        Map<String, Path> none = volumes.mountVolumes(pod("u-2", null, configMap(null), secret(), downwardApi(), projected()));
        assertThat(stat(none.get("settings").resolve("mode"))).isEqualTo("0 644");
        assertThat(stat(none.get("creds").resolve("password"))).isEqualTo("0 400");
        assertThat(stat(none.get("info").resolve("name"))).isEqualTo("0 644");
        assertThat(stat(none.get("all").resolve("token"))).isEqualTo("0 644");
        assertThat(stat(none.get("settings"))).isEqualTo("0 777");
    }

    /**
     * Upstream's e2e "ServiceAccounts should set ownership and permission when RunAsUser or FsGroup is present": the
     * token is the containers' one user's (0600), the group's read with an fsGroup (0640), the world's with neither.
     */
    @Test
    void aProjectedTokenIsTheUserAllContainersRunAsAndTheFsGroups() throws Exception {
        record Case(Long runAsUser, Long fsGroup, Long otherContainersUser, String owner, String stat) {}
        int n = 0;
        for (Case c : List.of(
                new Case(1000L, null, null, "1000", "0 600"),
                new Case(null, FS_GROUP, null, "0", FS_GROUP + " 640"),
                new Case(1000L, FS_GROUP, null, "1000", FS_GROUP + " 640"),
                new Case(null, null, null, "0", "0 644"),
                new Case(1000L, null, 2000L, "0", "0 644"))) {
            Pod pod = pod("u-" + ++n, c.fsGroup(), projected());
            var spec = pod.getSpec();
            spec.getSecurityContext().setRunAsUser(c.runAsUser());
            if (c.otherContainersUser() != null) {
                // Two users: the token is nobody's in particular (upstream's FsUserFrom gives none).
                spec.getInitContainers().add(new ContainerBuilder().withName("init").withImage("busybox")
                        .withNewSecurityContext().withRunAsUser(c.otherContainersUser()).endSecurityContext().build());
            }
            Path token = volumes.mountVolumes(pod).get("all").resolve("token");
            assertThat(Files.getAttribute(token, "unix:uid").toString() + " / " + stat(token)).as(c.toString())
                    .isEqualTo(c.owner() + " / " + c.stat());
        }
    }

    @Test
    void anUpdatedConfigMapsNewFilesAreTheGroupsAndAnUnchangedOneIsNotWrittenAgain() throws Exception {
        Pod pod = pod("u-1", FS_GROUP, configMap(0400));
        Path dir = volumes.mountVolumes(pod).get("settings");
        assertThat(stat(dir.resolve("mode"))).isEqualTo(FS_GROUP + " 440");
        Path version = Files.readSymbolicLink(dir.resolve("..data"));

        // The group's read on the file is the ownership's, not a change to write again at each sync; the root keeps
        // its setgid.
        volumes.remountVolumes(pod);
        assertThat(Files.readSymbolicLink(dir.resolve("..data"))).isEqualTo(version);
        assertThat(stat(dir)).isEqualTo(FS_GROUP + " 2777");

        objects.configMap("shop", "settings", Map.of("mode", "slow", "extra", "1"));
        clock.advance(Duration.ofMinutes(1));
        volumes.remountVolumes(pod);
        assertThat(Files.readSymbolicLink(dir.resolve("..data"))).isNotEqualTo(version);
        assertThat(Files.readString(dir.resolve("mode"))).isEqualTo("slow");
        assertThat(stat(dir.resolve("mode"))).isEqualTo(FS_GROUP + " 440");
        assertThat(stat(dir.resolve("extra"))).isEqualTo(FS_GROUP + " 440");
    }
}
