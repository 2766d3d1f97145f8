package io.jkubelet.docker;

import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.DnsConfig;
import io.jkubelet.core.runtime.KeyValue;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.PortMapping;
import io.jkubelet.core.runtime.SecurityProfile;
import io.jkubelet.docker.engine.ContainerConfig.HealthConfig;
import io.jkubelet.docker.engine.HostConfig;
import io.jkubelet.docker.engine.HostConfig.PortBinding;
import io.jkubelet.docker.engine.HostConfig.RestartPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The translation of CRI configs into Docker create calls, without Docker. */
class CreateSpecsTest {

    private static final DockerRuntimeOptions OPTIONS = DockerRuntimeOptions.DEFAULTS;

    @Test
    void sandboxOnThePodNetworkPublishesHostPortsAndSetsDnsHostnameAndCgroups() {
        PodSandboxConfig config = sandbox(NamespaceOptions.POD_DEFAULT, List.of(
                new PortMapping("TCP", 80, 8080, "127.0.0.1"),
                new PortMapping("UDP", 53, 5353, ""),
                new PortMapping("TCP", 9090, 0, "")));

        CreateSpec spec = CreateSpecs.sandbox(config, OPTIONS, "cgroupfs");

        HostConfig hc = spec.hostConfig();
        assertThat(spec.name()).isEqualTo("k8s_POD_web_default_uid-1_0");
        assertThat(spec.hostname()).isEqualTo("web-host");
        assertThat(spec.image()).isEqualTo("pause:3.9");
        assertThat(hc.networkMode()).isEqualTo("default");
        assertThat(hc.ipcMode()).isEqualTo("shareable");
        assertThat(hc.pidMode()).isNull();
        assertThat(hc.oomScoreAdj()).isEqualTo(3);
        assertThat(hc.cgroupParent()).isEqualTo("/kubepods/besteffort/poduid-1");
        assertThat(hc.sysctls()).containsEntry("net.ipv4.ip_unprivileged_port_start", "0");
        assertThat(hc.dns()).containsExactly("10.96.0.10");
        assertThat(hc.dnsSearch()).containsExactly("default.svc.cluster.local");
        assertThat(hc.dnsOptions()).containsExactly("ndots:5");
        assertThat(hc.cpuShares()).isEqualTo(2L);
        assertThat(hc.restartPolicy()).isEqualTo(RestartPolicy.no());
        assertThat(spec.exposedPorts()).containsExactly("80/tcp", "53/udp");
        assertThat(spec.toConfig().exposedPorts()).containsOnlyKeys("80/tcp", "53/udp");
        Map<String, List<PortBinding>> bindings = hc.portBindings();
        assertThat(bindings.get("80/tcp")).containsExactly(new PortBinding("127.0.0.1", "8080"));
        assertThat(bindings.get("53/udp")).containsExactly(new PortBinding(null, "5353"));
        assertThat(hc.logConfig().type()).isEqualTo("json-file");
        // Docker's own health checks would compete with the kubelet's probes.
        assertThat(spec.toConfig().healthcheck()).isEqualTo(new HealthConfig(List.of("NONE")));
    }

    @Test
    void withDockersSystemdDriverSandboxAndContainersGetTheSliceOnly() {
        PodSandboxConfig pod = sandbox(NamespaceOptions.POD_DEFAULT, List.of());
        PodSandboxConfig sliced = new PodSandboxConfig(pod.metadata(), pod.hostname(), pod.logDirectory(), pod.dnsConfig(),
                pod.portMappings(), pod.labels(), pod.annotations(),
                "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-poduid_1.slice", pod.namespaceOptions(),
                pod.oomScoreAdj(), pod.image(), pod.privileged(), pod.sysctls());
        ContainerConfig app = container(null, new LinuxContainerResources(0, 0, 0, 0, 0));

        assertThat(CreateSpecs.sandbox(sliced, OPTIONS, "systemd").hostConfig().cgroupParent())
                .isEqualTo("kubepods-besteffort-poduid_1.slice");
        assertThat(CreateSpecs.container("s", app, sliced, OPTIONS, "systemd").hostConfig().cgroupParent())
                .isEqualTo("kubepods-besteffort-poduid_1.slice");
        assertThat(CreateSpecs.container("s", app, pod, OPTIONS, "cgroupfs").hostConfig().cgroupParent())
                .isEqualTo("/kubepods/besteffort/poduid-1");
    }

    @Test
    void aDevicePluginsDeviceNodesBecomeDockersDeviceMappingsAsDockershimMadeThem() {
        ContainerConfig base = container(null, new LinuxContainerResources(0, 0, 0, 0, 0));
        ContainerConfig withDevices = new ContainerConfig(base.metadata(), base.image(), base.command(), base.args(),
                base.workingDir(), base.envs(), base.mounts(), base.labels(), base.annotations(), base.logPath(), false,
                false, false, base.resources(), base.securityContext(),
                List.of(new io.jkubelet.core.runtime.Device("/dev/gpu0", "/dev/nvidia0", "rwm")), List.of());

        HostConfig hc = CreateSpecs.container("s", withDevices, sandbox(NamespaceOptions.POD_DEFAULT, List.of()), OPTIONS,
                "cgroupfs").hostConfig();
        assertThat(hc.devices()).containsExactly(new HostConfig.DeviceMapping("/dev/nvidia0", "/dev/gpu0", "rwm"));
        assertThat(CreateSpecs.container("s", base, sandbox(NamespaceOptions.POD_DEFAULT, List.of()), OPTIONS,
                "cgroupfs").hostConfig().devices()).isNull();
    }

    /**
     * A pod's raw block volume, as the kubelet's config gives it (upstream's {@code makeBlockVolumes}): Docker is given
     * the pod's link to the device, which it follows to the device node, at the container's {@code devicePath}.
     */
    @Test
    void aRawBlockVolumeBecomesADeviceMappingOfThePodsLinkToTheDevice(@TempDir Path tmp) throws Exception {
        io.fabric8.kubernetes.api.model.Container db = new io.fabric8.kubernetes.api.model.ContainerBuilder()
                .withName("db").withImage("busybox").addNewVolumeDevice().withName("data").withDevicePath("/dev/xvda")
                .endVolumeDevice().addNewVolumeDevice().withName("ro").withDevicePath("/dev/xvdb").endVolumeDevice()
                .build();
        io.fabric8.kubernetes.api.model.Pod pod = new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                .withName("db").withNamespace("default").withUid("uid-1").endMetadata().withNewSpec()
                .withContainers(db).endSpec().build();
        ContainerConfig config = new io.jkubelet.core.kuberuntime.ContainerConfigFactory(NODE, (p, c) -> 0)
                .containerConfig(pod, db, 0, "10.0.0.2", Map.of(
                        "data", io.jkubelet.core.volumemanager.MappedBlockVolumes.linked(tmp, "data", "/dev/loop3", false),
                        "ro", io.jkubelet.core.volumemanager.MappedBlockVolumes.linked(tmp, "ro", "/dev/loop4", true)),
                        null, null, io.jkubelet.core.kuberuntime.ImageUser.ROOT);

        HostConfig hc = CreateSpecs.container("s", config, sandbox(NamespaceOptions.POD_DEFAULT, List.of()), OPTIONS,
                "cgroupfs").hostConfig();

        assertThat(hc.devices()).containsExactly(
                new HostConfig.DeviceMapping(tmp.resolve("data").toString(), "/dev/xvda", "mrw"),
                new HostConfig.DeviceMapping(tmp.resolve("ro").toString(), "/dev/xvdb", "r"));
    }

    private static final io.jkubelet.core.kuberuntime.NodeContext NODE = new io.jkubelet.core.kuberuntime.NodeContext(
            "node-a", List.of("192.168.1.10"), Path.of("/var/log/pods"), Path.of("/var/log/containers"),
            "jkubelet/pause:3.9", List.of(), "cluster.local", x -> Math.max(x, 0));

    @Test
    void sandboxOnTheNodeNetworkUsesTheHostsNamespacesAndNoHostname() {
        CreateSpec spec = CreateSpecs.sandbox(sandbox(
                new NamespaceOptions(NamespaceMode.NODE, NamespaceMode.NODE, NamespaceMode.NODE), List.of()), OPTIONS, "cgroupfs");

        assertThat(spec.hostConfig().networkMode()).isEqualTo("host");
        assertThat(spec.hostConfig().pidMode()).isEqualTo("host");
        assertThat(spec.hostConfig().ipcMode()).isEqualTo("host");
        assertThat(spec.hostname()).isNull();
    }

    @Test
    void containerJoinsTheSandboxAndCarriesItsProcessResourcesAndSecurity() {
        LinuxContainerSecurityContext sc = new LinuxContainerSecurityContext(1000L, 3000L, List.of(2000L, 2001L),
                false, true, List.of("NET_ADMIN", "CAP_SYS_TIME"), List.of("ALL"), NamespaceOptions.POD_DEFAULT, true);
        ContainerConfig config = container(sc, new LinuxContainerResources(100_000, 50_000, 256, 64L << 20, 5, "2-3", "1"));

        CreateSpec spec = CreateSpecs.container("sandbox-id", config,
                sandbox(NamespaceOptions.POD_DEFAULT, List.of()), OPTIONS, "cgroupfs");

        HostConfig hc = spec.hostConfig();
        assertThat(spec.name()).isEqualTo("k8s_app_web_default_uid-1_1");
        assertThat(spec.entrypoint()).containsExactly("/bin/server");
        assertThat(spec.cmd()).containsExactly("--port", "80");
        assertThat(spec.env()).containsExactly("A=1", "B=");
        assertThat(spec.workingDir()).isEqualTo("/srv");
        assertThat(spec.user()).isEqualTo("1000:3000");
        assertThat(spec.labels()).containsEntry("io.kubernetes.container.logpath", "/var/log/pods/default_web_uid-1/app/1.log");
        assertThat(hc.networkMode()).isEqualTo("container:sandbox-id");
        assertThat(hc.ipcMode()).isEqualTo("container:sandbox-id");
        assertThat(hc.pidMode()).isNull();
        assertThat(hc.utsMode()).isNull();
        assertThat(hc.memory()).isEqualTo(64L << 20);
        assertThat(hc.memorySwap()).isEqualTo(64L << 20);
        assertThat(hc.cpuShares()).isEqualTo(256L);
        assertThat(hc.cpuQuota()).isEqualTo(50_000L);
        assertThat(hc.cpuPeriod()).isEqualTo(100_000L);
        assertThat(hc.oomScoreAdj()).isEqualTo(5);
        assertThat(hc.cpusetCpus()).isEqualTo("2-3");
        assertThat(hc.cpusetMems()).isEqualTo("1");
        assertThat(hc.groupAdd()).containsExactly("2000", "2001");
        assertThat(hc.readonlyRootfs()).isTrue();
        assertThat(hc.capAdd()).containsExactly("NET_ADMIN", "SYS_TIME");
        assertThat(hc.capDrop()).containsExactly("ALL");
        assertThat(hc.securityOpt()).containsExactly("seccomp=unconfined", "no-new-privileges");
        assertThat(hc.cgroupParent()).isEqualTo("/kubepods/besteffort/poduid-1");
        assertThat(hc.binds())
                .containsExactly("/var/lib/kubelet/pods/uid-1/volumes/data:/data:ro", "/mnt/shared:/shared:rw,rslave");
        assertThat(hc.logConfig().type()).isEqualTo("json-file");
    }

    @ParameterizedTest
    @CsvSource({"POD, CONTAINER, ", "NODE, NODE, host", "POD, POD, "})
    void containerNamespacesFollowTheOptions(NamespaceMode network, NamespaceMode pid, String uts) {
        LinuxContainerSecurityContext sc = new LinuxContainerSecurityContext(null, null, List.of(), false, false,
                List.of(), List.of(), new NamespaceOptions(network, pid, NamespaceMode.POD), false);

        HostConfig hc = CreateSpecs.container("sandbox-id", container(sc, new LinuxContainerResources(0, 0, 0, 0, 0)),
                sandbox(NamespaceOptions.POD_DEFAULT, List.of()), OPTIONS, "cgroupfs").hostConfig();

        assertThat(hc.utsMode()).isEqualTo(uts);
        assertThat(hc.pidMode()).isEqualTo(switch (pid) {
            case POD -> "container:sandbox-id";
            case NODE -> "host";
            case CONTAINER -> null;
        });
        // The host's IPC, when asked, comes through the sandbox: containers always join the sandbox's.
        assertThat(hc.ipcMode()).isEqualTo("container:sandbox-id");
    }

    @Test
    void appContainerLogsRotateInDockersDriverAtThePolicysBytesAndTheSandboxsDoNot() {
        DockerRuntimeOptions rotating = OPTIONS.withLogRotation(10L << 20, 5);
        ContainerConfig app = container(null, new LinuxContainerResources(0, 0, 0, 0, 0));
        PodSandboxConfig pod = sandbox(NamespaceOptions.POD_DEFAULT, List.of());

        HostConfig hc = CreateSpecs.container("sandbox-id", app, pod, rotating, "cgroupfs").hostConfig();
        HostConfig pause = CreateSpecs.sandbox(pod, rotating, "cgroupfs").hostConfig();

        // Exact bytes: Docker would read "10Mi" or "10m" as 10,000,000.
        assertThat(hc.logConfig().config()).containsExactlyInAnyOrderEntriesOf(
                Map.of("max-size", "10485760", "max-file", "5"));
        assertThat(pause.logConfig().config()).isEmpty();
        assertThat(CreateSpecs.container("sandbox-id", app, pod, OPTIONS.withLogRotation(-1, 5), "cgroupfs")
                .hostConfig().logConfig().config()).isEmpty();
        assertThat(OPTIONS.withLogRotation(0, 2).logOptions()).containsEntry("max-size", "1");
    }

    @Test
    void seccompProfilesBecomeDockersSecurityOptionsAsDockershimGaveThem(@TempDir Path dir) throws IOException {
        Path profile = dir.resolve("audit.json");
        Files.writeString(profile, "{\n  \"defaultAction\": \"SCMP_ACT_LOG\",\n  \"syscalls\": []\n}\n");
        PodSandboxConfig pod = sandbox(NamespaceOptions.POD_DEFAULT, List.of());

        assertThat(securityOpts(SecurityProfile.UNCONFINED, pod)).containsExactly("seccomp=unconfined");
        // No option at all: Docker applies its own default profile.
        assertThat(securityOpts(SecurityProfile.RUNTIME_DEFAULT, pod)).isEmpty();
        // Docker takes the profile's content, compacted, not its path.
        assertThat(securityOpts(SecurityProfile.localhost(profile.toString()), pod))
                .containsExactly("seccomp={\"defaultAction\":\"SCMP_ACT_LOG\",\"syscalls\":[]}");
        assertThat(CreateSpecs.sandbox(withSeccomp(pod, SecurityProfile.RUNTIME_DEFAULT), OPTIONS, "cgroupfs")
                .hostConfig().securityOpt()).isEmpty();
        assertThat(CreateSpecs.sandbox(pod, OPTIONS, "cgroupfs").hostConfig().securityOpt())
                .containsExactly("seccomp=unconfined");
    }

    @Test
    void aLocalhostProfileThatCannotBeReadIsRefusedNamingTheFile(@TempDir Path dir) throws IOException {
        PodSandboxConfig pod = sandbox(NamespaceOptions.POD_DEFAULT, List.of());
        Path missing = dir.resolve("missing.json");
        Path notJson = Files.writeString(dir.resolve("broken.json"), "{defaultAction");

        assertThatThrownBy(() -> securityOpts(SecurityProfile.localhost(missing.toString()), pod))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("failed to generate seccomp security options for container app: cannot load seccomp "
                        + "profile \"" + missing + "\": open " + missing + ": no such file or directory");
        assertThatThrownBy(() -> securityOpts(SecurityProfile.localhost(notJson.toString()), pod))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("failed to generate seccomp security options for container app: cannot load "
                        + "seccomp profile \"" + notJson + "\": not JSON: ");
        assertThatThrownBy(() -> securityOpts(SecurityProfile.localhost("profiles/x.json"), pod))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("failed to generate seccomp security options for container app: seccomp profile path "
                        + "must be absolute, but got relative path \"profiles/x.json\"");
        assertThatThrownBy(() -> CreateSpecs.sandbox(withSeccomp(pod, SecurityProfile.localhost(missing.toString())),
                OPTIONS, "cgroupfs"))
                .hasMessageStartingWith("failed to generate seccomp security options for sandbox web: ");
    }

    @Test
    void theImagesNamedUserAndAppArmorProfilesBecomeDockersUserAndSecurityOptionsAsDockershimGaveThem() {
        PodSandboxConfig pod = sandbox(NamespaceOptions.POD_DEFAULT, List.of());
        LinuxContainerResources none = new LinuxContainerResources(0, 0, 0, 0, 0);
        assertThat(CreateSpecs.container("s", container(named("nobody", null, null), none), pod, OPTIONS, "cgroupfs")
                .user()).isEqualTo("nobody");
        assertThat(CreateSpecs.container("s", container(named("nobody", 3000L, null), none), pod, OPTIONS, "cgroupfs")
                .user()).as("a runAsGroup joins the image's user").isEqualTo("nobody:3000");

        assertThat(appArmorOpts(null, pod)).as("none asked for: Docker's docker-default").isEmpty();
        assertThat(appArmorOpts(SecurityProfile.RUNTIME_DEFAULT, pod)).isEmpty();
        assertThat(appArmorOpts(SecurityProfile.UNCONFINED, pod)).containsExactly("apparmor=unconfined");
        assertThat(appArmorOpts(SecurityProfile.localhost("k8s-nginx"), pod)).containsExactly("apparmor=k8s-nginx");
    }

    private static LinuxContainerSecurityContext named(String user, Long group, SecurityProfile apparmor) {
        return new LinuxContainerSecurityContext(null, group, List.of(), false, false, List.of(), List.of(),
                NamespaceOptions.POD_DEFAULT, false, SecurityProfile.RUNTIME_DEFAULT, user, apparmor);
    }

    private static List<String> appArmorOpts(SecurityProfile profile, PodSandboxConfig pod) {
        return CreateSpecs.container("s", container(named("", null, profile), new LinuxContainerResources(0, 0, 0, 0,
                0)), pod, OPTIONS, "cgroupfs").hostConfig().securityOpt();
    }

    private static List<String> securityOpts(SecurityProfile profile, PodSandboxConfig pod) {
        LinuxContainerSecurityContext sc = new LinuxContainerSecurityContext(null, null, List.of(), false, false,
                List.of(), List.of(), NamespaceOptions.POD_DEFAULT, false, profile);
        return CreateSpecs.container("s", container(sc, new LinuxContainerResources(0, 0, 0, 0, 0)), pod, OPTIONS,
                "cgroupfs").hostConfig().securityOpt();
    }

    private static PodSandboxConfig withSeccomp(PodSandboxConfig c, SecurityProfile profile) {
        return new PodSandboxConfig(c.metadata(), c.hostname(), c.logDirectory(), c.dnsConfig(), c.portMappings(),
                c.labels(), c.annotations(), c.cgroupParent(), c.namespaceOptions(), c.oomScoreAdj(), c.image(),
                c.privileged(), c.sysctls(), profile);
    }

    @Test
    void badSettingsAreRefusedNamingTheContainerAndTheField() {
        LinuxContainerSecurityContext groupOnly = new LinuxContainerSecurityContext(null, 10L, List.of(), false,
                false, List.of(), List.of(), NamespaceOptions.POD_DEFAULT, false);
        LinuxContainerSecurityContext badCap = new LinuxContainerSecurityContext(null, null, List.of(), false,
                false, List.of("FLY"), List.of(), NamespaceOptions.POD_DEFAULT, false);
        PodSandboxConfig sandbox = sandbox(NamespaceOptions.POD_DEFAULT, List.of());
        LinuxContainerResources none = new LinuxContainerResources(0, 0, 0, 0, 0);

        assertThatThrownBy(() -> CreateSpecs.container("s", container(groupOnly, none), sandbox, OPTIONS, "cgroupfs"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("container app: runAsGroup is specified without a runAsUser");
        assertThatThrownBy(() -> CreateSpecs.container("s", container(badCap, none), sandbox, OPTIONS, "cgroupfs"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("container app: unknown capability \"FLY\" in securityContext.capabilities.add");
    }

    private static PodSandboxConfig sandbox(NamespaceOptions ns, List<PortMapping> ports) {
        return new PodSandboxConfig(new PodSandboxMetadata("web", "uid-1", "default", 0), "web-host",
                "/var/log/pods/default_web_uid-1",
                new DnsConfig(List.of("10.96.0.10"), List.of("default.svc.cluster.local"), List.of("ndots:5")),
                ports, Map.of("app", "web"), Map.of(), "/kubepods/besteffort/poduid-1", ns, 3, "pause:3.9", false,
                Map.of("net.ipv4.ip_unprivileged_port_start", "0"));
    }

    private static ContainerConfig container(LinuxContainerSecurityContext sc, LinuxContainerResources resources) {
        return new ContainerConfig(new ContainerMetadata("app", 1), "busybox:1.0", List.of("/bin/server"),
                List.of("--port", "80"), "/srv", List.of(new KeyValue("A", "1"), new KeyValue("B", "")),
                List.of(new Mount("/data", "/var/lib/kubelet/pods/uid-1/volumes/data", true),
                        new Mount("/shared", "/mnt/shared", false, "rslave")),
                Map.of(), Map.of(), "app/1.log", false, false, false, resources, sc);
    }
}
