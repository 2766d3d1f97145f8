package io.jkubelet.cri;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.ContainerStatus;
import io.jkubelet.core.runtime.ExecResult;
import io.jkubelet.core.runtime.KeyValue;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.SecurityProfile;
import io.jkubelet.cri.v1.CriApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Containers through the fake CRI runtime: the config as the runtime receives it (mounts and their propagation,
 * environment, resources, security context, log path), its statuses and lists as the port's records, exec and stop.
 */
class CriContainerTranslationTest extends FakeCriTestBase {

    private static final ContainerConfig APP = new ContainerConfig(new ContainerMetadata("app", 3), NGINX,
            List.of("nginx"), List.of("-g", "daemon off;"), "/srv",
            List.of(new KeyValue("A", "1"), new KeyValue("B", "2"), new KeyValue("A", "3")),
            List.of(new Mount("/data", "/var/lib/kubelet/pods/u/volumes/kubernetes.io~empty-dir/data", false, "private"),
                    new Mount("/host", "/", true, "rslave"),
                    new Mount("/shared", "/mnt/shared", false, "rshared"),
                    new Mount("/etc/hosts", "/var/lib/kubelet/pods/u/etc-hosts", false, null)),
            Map.of("io.kubernetes.container.name", "app"), Map.of("io.kubernetes.container.restartCount", "3"),
            "app/3.log", true, true, false,
            new LinuxContainerResources(100_000, 50_000, 512, 268_435_456, 1000, "2-3", "1"),
            new LinuxContainerSecurityContext(1000L, 3000L, List.of(2000L, 4000L), false, true, List.of("NET_ADMIN"),
                    List.of("ALL"), new NamespaceOptions(NamespaceMode.POD, NamespaceMode.POD, NamespaceMode.POD), true,
                    SecurityProfile.localhost("/var/lib/kubelet/seccomp/audit.json")));

    @Test
    void theContainerConfigReachesTheRuntimeFieldForField() {
        PodSandboxConfig pod = sandboxConfig("pod");
        String sandbox = cri.runPodSandbox(pod);

        String id = cri.createContainer(sandbox, APP, pod);

        CriApi.CreateContainerRequest request = fake.recorder.request("CreateContainer", CriApi.CreateContainerRequest.class);
        assertThat(id).isEqualTo("container-2");
        assertThat(request.getPodSandboxId()).isEqualTo(sandbox);
        assertThat(request.getSandboxConfig()).isEqualTo(RuntimeToCri.sandboxConfig(pod));
        CriApi.ContainerConfig sent = request.getConfig();
        assertThat(sent.getMetadata()).isEqualTo(CriApi.ContainerMetadata.newBuilder().setName("app").setAttempt(3).build());
        assertThat(sent.getImage().getImage()).isEqualTo(NGINX);
        assertThat(sent.getCommandList()).containsExactly("nginx");
        assertThat(sent.getArgsList()).containsExactly("-g", "daemon off;");
        assertThat(sent.getWorkingDir()).isEqualTo("/srv");
        assertThat(sent.getEnvsList()).as("in order, a repeated name kept").extracting(e -> e.getKey() + "=" + e.getValue())
                .containsExactly("A=1", "B=2", "A=3");
        assertThat(sent.getMountsList()).extracting(CriApi.Mount::getContainerPath, CriApi.Mount::getReadonly,
                CriApi.Mount::getPropagation).containsExactly(
                tuple("/data", false, CriApi.MountPropagation.PROPAGATION_PRIVATE),
                tuple("/host", true, CriApi.MountPropagation.PROPAGATION_HOST_TO_CONTAINER),
                tuple("/shared", false, CriApi.MountPropagation.PROPAGATION_BIDIRECTIONAL),
                tuple("/etc/hosts", false, CriApi.MountPropagation.PROPAGATION_PRIVATE));
        assertThat(sent.getMounts(0).getHostPath()).isEqualTo("/var/lib/kubelet/pods/u/volumes/kubernetes.io~empty-dir/data");
        assertThat(sent.getLabelsMap()).isEqualTo(APP.labels());
        assertThat(sent.getAnnotationsMap()).isEqualTo(APP.annotations());
        assertThat(sent.getLogPath()).isEqualTo("app/3.log");
        assertThat(List.of(sent.getStdin(), sent.getStdinOnce(), sent.getTty())).containsExactly(true, true, false);
        assertThat(sent.getLinux().getResources()).isEqualTo(CriApi.LinuxContainerResources.newBuilder()
                .setCpuPeriod(100_000).setCpuQuota(50_000).setCpuShares(512).setMemoryLimitInBytes(268_435_456)
                .setOomScoreAdj(1000).setCpusetCpus("2-3").setCpusetMems("1").build());
        CriApi.LinuxContainerSecurityContext security = sent.getLinux().getSecurityContext();
        assertThat(security.getRunAsUser().getValue()).isEqualTo(1000);
        assertThat(security.getRunAsGroup().getValue()).isEqualTo(3000);
        assertThat(security.getSupplementalGroupsList()).containsExactly(2000L, 4000L);
        assertThat(security.getPrivileged()).isFalse();
        assertThat(security.getReadonlyRootfs()).isTrue();
        assertThat(security.getCapabilities().getAddCapabilitiesList()).containsExactly("NET_ADMIN");
        assertThat(security.getCapabilities().getDropCapabilitiesList()).containsExactly("ALL");
        assertThat(security.getNamespaceOptions().getPid()).isEqualTo(CriApi.NamespaceMode.POD);
        assertThat(security.getNoNewPrivs()).isTrue();
        assertThat(security.getSeccomp()).isEqualTo(CriApi.SecurityProfile.newBuilder()
                .setProfileType(CriApi.SecurityProfile.ProfileType.Localhost)
                .setLocalhostRef("/var/lib/kubelet/seccomp/audit.json").build());
    }

    @Test
    void noUserIsSentAsNoneSoTheImagesUserRunsButUserZeroIsSent() {
        String id = createdContainer("app", NGINX);
        CriApi.LinuxContainerSecurityContext imageUser = fake.recorder
                .request("CreateContainer", CriApi.CreateContainerRequest.class).getConfig().getLinux().getSecurityContext();
        assertThat(imageUser.hasRunAsUser()).isFalse();
        assertThat(imageUser.hasRunAsGroup()).isFalse();
        assertThat(id).isNotEmpty();

        LinuxContainerSecurityContext root = new LinuxContainerSecurityContext(0L, 0L, List.of(), false, false, List.of(),
                List.of(), NamespaceOptions.POD_DEFAULT, false);
        ContainerConfig c = containerConfig("root", NGINX);
        cri.createContainer("sandbox-1", new ContainerConfig(c.metadata(), c.image(), c.command(), c.args(), null,
                c.envs(), c.mounts(), c.labels(), c.annotations(), c.logPath(), false, false, false, c.resources(), root),
                sandboxConfig("pod"));
        CriApi.LinuxContainerSecurityContext sent = fake.recorder
                .request("CreateContainer", CriApi.CreateContainerRequest.class).getConfig().getLinux().getSecurityContext();
        assertThat(sent.hasRunAsUser()).isTrue();
        assertThat(sent.getRunAsUser().getValue()).isZero();
    }

    @Test
    void aDevicePluginsDeviceNodesReachTheRuntimeAsCriDevices() {
        ContainerConfig c = containerConfig("app", NGINX);
        ContainerConfig withDevices = new ContainerConfig(c.metadata(), c.image(), c.command(), c.args(), null, c.envs(),
                c.mounts(), c.labels(), c.annotations(), c.logPath(), false, false, false, c.resources(),
                c.securityContext(), List.of(new io.jkubelet.core.runtime.Device("/dev/gpu0", "/dev/nvidia0", "rw")),
                List.of());
        PodSandboxConfig pod = sandboxConfig("pod");
        cri.createContainer(cri.runPodSandbox(pod), withDevices, pod);

        assertThat(fake.recorder.request("CreateContainer", CriApi.CreateContainerRequest.class).getConfig().getDevicesList())
                .containsExactly(CriApi.Device.newBuilder().setContainerPath("/dev/gpu0").setHostPath("/dev/nvidia0")
                        .setPermissions("rw").build());
    }

    /**
     * A pod's raw block volume, as the kubelet's config gives it (upstream's {@code makeBlockVolumes}): a CRI device of
     * the pod's link to the device, at the container's {@code devicePath}, {@code mrw} or {@code r} for a read-only claim.
     */
    @Test
    void aRawBlockVolumeReachesTheRuntimeAsACriDeviceOfThePodsLinkToTheDevice(@TempDir Path tmp) throws Exception {
        io.fabric8.kubernetes.api.model.Container db = new io.fabric8.kubernetes.api.model.ContainerBuilder()
                .withName("db").withImage(NGINX).addNewVolumeDevice().withName("data").withDevicePath("/dev/xvda")
                .endVolumeDevice().addNewVolumeDevice().withName("ro").withDevicePath("/dev/xvdb").endVolumeDevice()
                .build();
        io.fabric8.kubernetes.api.model.Pod spec = new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                .withName("db").withNamespace("default").withUid("uid-1").endMetadata().withNewSpec()
                .withContainers(db).endSpec().build();
        ContainerConfig config = new io.jkubelet.core.kuberuntime.ContainerConfigFactory(
                new io.jkubelet.core.kuberuntime.NodeContext("node-a", List.of("192.168.1.10"), Path.of("/var/log/pods"),
                        Path.of("/var/log/containers"), "jkubelet/pause:3.9", List.of(), "cluster.local",
                        x -> Math.max(x, 0)), (p, c) -> 0)
                .containerConfig(spec, db, 0, "10.0.0.2", Map.of(
                        "data", io.jkubelet.core.volumemanager.MappedBlockVolumes.linked(tmp, "data", "/dev/loop3", false),
                        "ro", io.jkubelet.core.volumemanager.MappedBlockVolumes.linked(tmp, "ro", "/dev/loop4", true)),
                        null, null, io.jkubelet.core.kuberuntime.ImageUser.ROOT);
        PodSandboxConfig pod = sandboxConfig("pod");

        cri.createContainer(cri.runPodSandbox(pod), config, pod);

        assertThat(fake.recorder.request("CreateContainer", CriApi.CreateContainerRequest.class).getConfig().getDevicesList())
                .containsExactly(CriApi.Device.newBuilder().setContainerPath("/dev/xvda")
                                .setHostPath(tmp.resolve("data").toString()).setPermissions("mrw").build(),
                        CriApi.Device.newBuilder().setContainerPath("/dev/xvdb")
                                .setHostPath(tmp.resolve("ro").toString()).setPermissions("r").build());
    }

    @Test
    void theImagesNamedUserAndAnAppArmorProfileAreSentInBothOfTheirCriForms() {
        ContainerConfig c = containerConfig("app", NGINX);
        String sandbox = cri.runPodSandbox(sandboxConfig("pod"));
        for (SecurityProfile apparmor : List.of(SecurityProfile.RUNTIME_DEFAULT, SecurityProfile.UNCONFINED,
                SecurityProfile.localhost("k8s-nginx"))) {
            LinuxContainerSecurityContext sc = new LinuxContainerSecurityContext(null, 3000L, List.of(), false, false,
                    List.of(), List.of(), NamespaceOptions.POD_DEFAULT, false, SecurityProfile.RUNTIME_DEFAULT, "nobody",
                    apparmor);
            cri.createContainer(sandbox, new ContainerConfig(c.metadata(), c.image(), c.command(), c.args(), null,
                    c.envs(), c.mounts(), c.labels(), c.annotations(), c.logPath(), false, false, false, c.resources(),
                    sc), sandboxConfig("pod"));
            CriApi.LinuxContainerSecurityContext sent = fake.recorder
                    .request("CreateContainer", CriApi.CreateContainerRequest.class).getConfig().getLinux()
                    .getSecurityContext();
            assertThat(sent.hasRunAsUser()).isFalse();
            assertThat(sent.getRunAsUsername()).isEqualTo("nobody");
            assertThat(sent.getRunAsGroup().getValue()).isEqualTo(3000L);
            assertThat(sent.getApparmor()).isEqualTo(RuntimeToCri.profile(apparmor));
            assertThat(sent.getApparmorProfile()).isEqualTo(switch (apparmor.type()) {
                case RUNTIME_DEFAULT -> "runtime/default";
                case UNCONFINED -> "unconfined";
                case LOCALHOST -> "localhost/k8s-nginx";
            });
        }
        assertThat(fake.recorder.request("CreateContainer", CriApi.CreateContainerRequest.class).getConfig().getLinux()
                .getSecurityContext().getApparmor().getLocalhostRef()).isEqualTo("k8s-nginx");
    }

    @Test
    void aMountOfAnUnknownPropagationIsRefusedBeforeTheRuntimeIsAsked() {
        ContainerConfig c = containerConfig("app", NGINX);
        ContainerConfig shared = new ContainerConfig(c.metadata(), c.image(), c.command(), c.args(), null, c.envs(),
                List.of(new Mount("/x", "/y", false, "shared")), c.labels(), c.annotations(), c.logPath(), false, false,
                false, c.resources(), c.securityContext());

        assertThatThrownBy(() -> cri.createContainer("sandbox-1", shared, sandboxConfig("pod")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("mount /x has an unknown propagation \"shared\"; expected private, rslave or rshared");
        assertThat(fake.recorder.methods()).doesNotContain("CreateContainer");
    }

    @Test
    void anExitedContainersStatusKeepsItsExitCodeReasonTimesMountsAndLogPath() {
        fake.runtime.put("s1", CriApi.ContainerStatus.newBuilder().setId("c1")
                .setMetadata(CriApi.ContainerMetadata.newBuilder().setName("app").setAttempt(4))
                .setState(CriApi.ContainerState.CONTAINER_EXITED).setCreatedAt(1_700_000_000_000_000_001L)
                .setStartedAt(1_700_000_001_000_000_002L).setFinishedAt(1_700_000_002_000_000_003L).setExitCode(137)
                .setImage(CriApi.ImageSpec.newBuilder().setImage(NGINX)).setImageRef(NGINX_ID).setReason("OOMKilled")
                .setMessage("memory limit 256Mi reached").putLabels("io.kubernetes.container.name", "app")
                .putAnnotations("io.kubernetes.container.hash", "1a2b")
                .addMounts(CriApi.Mount.newBuilder().setContainerPath("/host").setHostPath("/").setReadonly(true)
                        .setPropagation(CriApi.MountPropagation.PROPAGATION_HOST_TO_CONTAINER))
                .addMounts(CriApi.Mount.newBuilder().setContainerPath("/shared").setHostPath("/mnt/shared")
                        .setPropagation(CriApi.MountPropagation.PROPAGATION_BIDIRECTIONAL))
                .setLogPath("/var/log/pods/shop_web_u/app/4.log").build());

        ContainerStatus status = cri.containerStatus("c1");

        assertThat(status).isEqualTo(new ContainerStatus("c1", new ContainerMetadata("app", 4),
                ContainerState.CONTAINER_EXITED, Instant.parse("2023-11-14T22:13:20.000000001Z"),
                Instant.parse("2023-11-14T22:13:21.000000002Z"), Instant.parse("2023-11-14T22:13:22.000000003Z"), 137,
                NGINX, NGINX_ID, "OOMKilled", "memory limit 256Mi reached", Map.of("io.kubernetes.container.name", "app"),
                Map.of("io.kubernetes.container.hash", "1a2b"),
                List.of(new Mount("/host", "/", true, "rslave"), new Mount("/shared", "/mnt/shared", false, "rshared")),
                "/var/log/pods/shop_web_u/app/4.log"));
    }

    @Test
    void aContainerCreatedButNotStartedHasNoStartOrFinishTimeAndAnUnknownStateStaysUnknown() {
        String id = createdContainer("app", NGINX);

        ContainerStatus created = cri.containerStatus(id);
        assertThat(created.state()).isEqualTo(ContainerState.CONTAINER_CREATED);
        assertThat(created.createdAt()).isEqualTo(Instant.ofEpochSecond(0, fake.runtime.nowNanos));
        assertThat(created.startedAt()).isNull();
        assertThat(created.finishedAt()).isNull();
        assertThat(created.logPath()).isEqualTo("/var/log/pods/default_pod_uid-pod/app/0.log");

        fake.runtime.put("sandbox-1", fake.runtime.status(id).toBuilder()
                .setState(CriApi.ContainerState.CONTAINER_UNKNOWN).build());
        assertThat(cri.containerStatus(id).state()).isEqualTo(ContainerState.CONTAINER_UNKNOWN);
    }

    @Test
    void startAndStopMoveTheContainerAndTheStopCarriesTheGracePeriodInSeconds() {
        String id = createdContainer("app", NGINX);
        cri.startContainer(id);
        assertThat(cri.containerStatus(id).state()).isEqualTo(ContainerState.CONTAINER_RUNNING);
        assertThat(cri.containerStatus(id).startedAt()).isEqualTo(Instant.ofEpochSecond(0, fake.runtime.nowNanos));

        cri.stopContainer(id, Duration.ofSeconds(30));

        assertThat(fake.recorder.request("StopContainer", CriApi.StopContainerRequest.class))
                .isEqualTo(CriApi.StopContainerRequest.newBuilder().setContainerId(id).setTimeout(30).build());
        ContainerStatus stopped = cri.containerStatus(id);
        assertThat(stopped.state()).isEqualTo(ContainerState.CONTAINER_EXITED);
        assertThat(stopped.reason()).isEqualTo("Completed");
        cri.removeContainer(id);
        cri.removeContainer(id);
        assertThat(fake.runtime.containers).isEmpty();
    }

    @Test
    void aListSendsItsFilterAndTranslatesEveryContainer() {
        String id = createdContainer("app", NGINX);
        fake.images.add(NGINX_ID, NGINX);
        String second = cri.createContainer("sandbox-1", containerConfig("side", NGINX), sandboxConfig("pod"));
        cri.startContainer(second);

        List<Container> running = cri.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING,
                "sandbox-1", Map.of("io.kubernetes.pod.uid", "uid-pod")));

        assertThat(fake.recorder.request("ListContainers", CriApi.ListContainersRequest.class).getFilter())
                .isEqualTo(CriApi.ContainerFilter.newBuilder().setPodSandboxId("sandbox-1")
                        .setState(CriApi.ContainerStateValue.newBuilder().setState(CriApi.ContainerState.CONTAINER_RUNNING))
                        .putLabelSelector("io.kubernetes.pod.uid", "uid-pod").build());
        assertThat(running).containsExactly(new Container(second, "sandbox-1", new ContainerMetadata("side", 0), NGINX,
                NGINX_ID, ContainerState.CONTAINER_RUNNING, Instant.ofEpochSecond(0, fake.runtime.nowNanos),
                Map.of("io.kubernetes.pod.uid", "uid-pod"), Map.of()));

        assertThat(cri.listContainers(new ContainerFilter(id, ContainerState.CONTAINER_CREATED, null, null)))
                .singleElement().satisfies(c -> assertThat(c.imageRef()).as("no image: the name").isEqualTo(NGINX));
        assertThat(fake.recorder.request("ListContainers", CriApi.ListContainersRequest.class).getFilter().getId())
                .isEqualTo(id);
        for (ContainerState state : ContainerState.values()) {
            cri.listContainers(new ContainerFilter(null, state, null, null));
            assertThat(fake.recorder.request("ListContainers", CriApi.ListContainersRequest.class).getFilter()
                    .getState().getState().name()).isEqualTo(state.name());
        }
    }

    @Test
    void execSyncSendsItsTimeoutInWholeSecondsRoundedUpAndAnswersTheCommandsOutput() {
        String id = createdContainer("app", NGINX);
        fake.runtime.execAnswer = CriApi.ExecSyncResponse.newBuilder().setExitCode(3)
                .setStdout(ByteString.copyFromUtf8("out")).setStderr(ByteString.copyFromUtf8("err")).build();

        ExecResult result = cri.execSync(id, List.of("sh", "-c", "exit 3"), Duration.ofMillis(1500));

        assertThat(fake.recorder.request("ExecSync", CriApi.ExecSyncRequest.class)).isEqualTo(CriApi.ExecSyncRequest
                .newBuilder().setContainerId(id).addAllCmd(List.of("sh", "-c", "exit 3")).setTimeout(2).build());
        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.stdout()).asString().isEqualTo("out");
        assertThat(result.stderr()).asString().isEqualTo("err");
        assertThat(result.timedOut()).isFalse();

        cri.execSync(id, List.of("true"), Duration.ofMillis(200));
        assertThat(fake.recorder.request("ExecSync", CriApi.ExecSyncRequest.class).getTimeout())
                .as("0 would mean none").isEqualTo(1);
        cri.execSync(id, List.of("true"), RuntimeService.NO_TIMEOUT);
        assertThat(fake.recorder.request("ExecSync", CriApi.ExecSyncRequest.class).getTimeout()).isZero();
    }

    @Test
    void anExecPastItsDeadlineIsTimedOutAndOtherExecFailuresAreErrors() {
        String id = createdContainer("app", NGINX);
        fake.recorder.inject("ExecSync", Status.DEADLINE_EXCEEDED);

        assertThat(cri.execSync(id, List.of("sleep", "10"), Duration.ofSeconds(1)))
                .satisfies(r -> assertThat(r.timedOut()).isTrue());

        fake.recorder.inject("ExecSync", Status.UNKNOWN.withDescription("container is not running"));
        assertThatThrownBy(() -> cri.execSync(id, List.of("true"), Duration.ofSeconds(1)))
                .isInstanceOf(CriCallException.class).hasMessage("ExecSync " + id + ": container is not running");
    }

    @Test
    void reopenContainerLogNamesTheContainer() {
        String id = createdContainer("app", NGINX);

        cri.reopenContainerLog(id);

        assertThat(fake.recorder.request("ReopenContainerLog", CriApi.ReopenContainerLogRequest.class).getContainerId())
                .isEqualTo(id);
    }
}
