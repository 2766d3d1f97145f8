package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.KeyValue;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PortMapping;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.subpath.MountTable;
import io.jkubelet.core.volume.util.subpath.Subpather;
import io.jkubelet.core.volumemanager.VolumeInfo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ContainerConfigFactoryTest {
    @TempDir Path tmp;
    private final NodeContext node = new NodeContext("node-a", List.of("192.168.1.10"), Path.of("/var/log/pods"),
            Path.of("/var/log/containers"), "jkubelet/pause:3.9", List.of(), "cluster.local", x -> Math.max(x, 0));
    private final ContainerConfigFactory factory = new ContainerConfigFactory(node, (p, c) -> -997);

    /** A factory whose subPath mounts go under the test's directory, unmounted after the test. */
    private ContainerConfigFactory withSubPaths() {
        return new ContainerConfigFactory(node, (p, c) -> -997, io.jkubelet.core.objects.PodObjects.standalone(),
                (ref, type, reason, message) -> { }, Map::of, ContainerCgroups.DEFAULT,
                SeccompProfiles.under(Path.of("/var/lib/kubelet"), false), RunContainerOptions.Source.NONE,
                new ContainerMounts(new PodDirs(tmp.resolve("root")), new Subpather(new LinuxMounts())));
    }

    @AfterEach
    void unmountSubPaths() throws Exception {
        if (tmp != null && Files.isReadable(Path.of("/proc/self/mountinfo"))) {
            MountTable.unmountAll(tmp);
        }
    }

    private static Pod pod(Container... containers) {
        return new PodBuilder().withNewMetadata().withName("web-node-a").withNamespace("prod").withUid("u1")
                .addToLabels("app", "web").addToAnnotations("team", "a").endMetadata()
                .withNewSpec().withNodeName("node-a").withContainers(containers).withTerminationGracePeriodSeconds(45L)
                .endSpec().build();
    }

    @Test
    void envIsExpandedInOrderAndFieldRefsResolve() throws Exception {
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36")
                .addNewEnv().withName("GREETING").withValue("hello").endEnv()
                .addNewEnv().withName("MESSAGE").withValue("$(GREETING) world $(UNDEFINED) $$(GREETING)").endEnv()
                .addNewEnv().withName("POD").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.name").endFieldRef().endValueFrom().endEnv()
                .addNewEnv().withName("NS").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.namespace").endFieldRef().endValueFrom().endEnv()
                .addNewEnv().withName("APP").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.labels['app']").endFieldRef().endValueFrom().endEnv()
                .addNewEnv().withName("NODE").withNewValueFrom().withNewFieldRef().withFieldPath("spec.nodeName").endFieldRef().endValueFrom().endEnv()
                .addNewEnv().withName("POD_IP").withNewValueFrom().withNewFieldRef().withFieldPath("status.podIP").endFieldRef().endValueFrom().endEnv()
                .addNewEnv().withName("HOST_IP").withNewValueFrom().withNewFieldRef().withFieldPath("status.hostIP").endFieldRef().endValueFrom().endEnv()
                .withCommand("sh", "-c").withArgs("echo $(MESSAGE) on $(NODE)")
                .build();
        ContainerConfig cfg = factory.containerConfig(pod(c), c, 0, "10.1.2.3", Map.of(), null, null, ImageUser.ROOT);
        assertThat(cfg.envs()).containsExactly(
                new KeyValue("GREETING", "hello"),
                new KeyValue("MESSAGE", "hello world $(UNDEFINED) $(GREETING)"),
                new KeyValue("POD", "web-node-a"), new KeyValue("NS", "prod"), new KeyValue("APP", "web"),
                new KeyValue("NODE", "node-a"), new KeyValue("POD_IP", "10.1.2.3"), new KeyValue("HOST_IP", "192.168.1.10"));
        assertThat(cfg.args()).containsExactly("echo hello world $(UNDEFINED) $(GREETING) on node-a");
    }

    @Test
    void allLabelsAndAnnotationsAreSortedLinesQuotedAsGoQuotesThem() throws Exception {
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36")
                .addNewEnv().withName("LABELS").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.labels").endFieldRef().endValueFrom().endEnv()
                .addNewEnv().withName("NOTES").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.annotations").endFieldRef().endValueFrom().endEnv()
                .build();
        Pod pod = new PodBuilder(pod(c)).editMetadata().addToLabels("tier", "front")
                .addToAnnotations("note", "say \"hi\"\nbye").endMetadata().build();
        // Upstream's fieldpath.FormatMap: key=%q per line, as the downward API volume writes them too.
        assertThat(factory.containerConfig(pod, c, 0, "10.1.2.3", Map.of(), null, null, ImageUser.ROOT).envs()).containsExactly(
                new KeyValue("LABELS", "app=\"web\"\ntier=\"front\""),
                new KeyValue("NOTES", "note=\"say \\\"hi\\\"\\nbye\"\nteam=\"a\""));
    }

    @Test
    void configMapRefsFailClearlyWithoutAnApiserverUnlessOptional() throws Exception {
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36")
                .addNewEnv().withName("X").withNewValueFrom().withNewConfigMapKeyRef().withName("settings").withKey("x")
                .endConfigMapKeyRef().endValueFrom().endEnv().build();
        assertThatThrownBy(() -> factory.containerConfig(pod(c), c, 0, "10.1.2.3", Map.of(), null, null, ImageUser.ROOT))
                .hasMessage("couldn't get configMap prod/settings, no kubeClient defined");
        Container optional = new ContainerBuilder().withName("app").withImage("busybox:1.36")
                .addNewEnv().withName("X").withNewValueFrom().withNewConfigMapKeyRef().withName("settings").withKey("x")
                .withOptional(true).endConfigMapKeyRef().endValueFrom().endEnv().build();
        assertThat(factory.containerConfig(pod(optional), optional, 0, "", Map.of(), null, null, ImageUser.ROOT).envs())
                .containsExactly(new KeyValue("X", ""));
    }

    record ResourceCase(String cpuRequest, String cpuLimit, String memLimit, long shares, long quota, long period, long memory) {}

    @Test
    void resourcesBecomeSharesQuotaAndMemoryLimits() throws Exception {
        List<ResourceCase> cases = List.of(
                new ResourceCase(null, null, null, 2, 0, 0, 0),
                new ResourceCase("100m", null, null, 102, 0, 0, 0),
                new ResourceCase(null, "500m", "64Mi", 512, 50_000, 100_000, 64L << 20),
                new ResourceCase("250m", "2", "1Gi", 256, 200_000, 100_000, 1L << 30),
                new ResourceCase("1m", "1m", null, 2, 1000, 100_000, 0));
        for (ResourceCase rc : cases) {
            var b = new ContainerBuilder().withName("app").withImage("busybox:1.36").withNewResources();
            if (rc.cpuRequest() != null) b.addToRequests("cpu", new Quantity(rc.cpuRequest()));
            if (rc.cpuLimit() != null) b.addToLimits("cpu", new Quantity(rc.cpuLimit()));
            if (rc.memLimit() != null) b.addToLimits("memory", new Quantity(rc.memLimit()));
            Container c = b.endResources().build();
            var r = factory.containerConfig(pod(c), c, 0, "", Map.of(), null, null, ImageUser.ROOT).resources();
            assertThat(List.of(r.cpuShares(), r.cpuQuota(), r.cpuPeriod(), r.memoryLimitInBytes())).as(rc.toString())
                    .containsExactly(rc.shares(), rc.quota(), rc.period(), rc.memory());
            // The policy asked for -997; this machine's floor (0 here) wins.
            assertThat(r.oomScoreAdj()).isZero();
        }
    }

    @Test
    void cpuCfsQuotaOffLeavesLimitsUnenforcedAndACustomPeriodScalesTheQuota() throws Exception {
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36").withNewResources()
                .addToLimits("cpu", new Quantity("500m")).endResources().build();
        var off = new ContainerConfigFactory(node, (p, x) -> 0, io.jkubelet.core.objects.PodObjects.standalone(),
                (r, t, re, m) -> { }, Map::of, new ContainerCgroups(p -> "", false, 100_000));
        var fiftyMs = new ContainerConfigFactory(node, (p, x) -> 0, io.jkubelet.core.objects.PodObjects.standalone(),
                (r, t, re, m) -> { }, Map::of, new ContainerCgroups(p -> "", true, 50_000));

        var unenforced = off.containerConfig(pod(c), c, 0, "", Map.of(), null, null, ImageUser.ROOT).resources();
        var scaled = fiftyMs.containerConfig(pod(c), c, 0, "", Map.of(), null, null, ImageUser.ROOT).resources();

        assertThat(List.of(unenforced.cpuShares(), unenforced.cpuQuota(), unenforced.cpuPeriod())).containsExactly(512L, 0L, 0L);
        assertThat(List.of(scaled.cpuQuota(), scaled.cpuPeriod())).containsExactly(25_000L, 50_000L);
    }

    @Test
    void theSandboxGoesIntoThePodsCgroup() throws Exception {
        var withCgroups = new ContainerConfigFactory(node, (p, x) -> 0, io.jkubelet.core.objects.PodObjects.standalone(),
                (r, t, re, m) -> { }, Map::of,
                new ContainerCgroups(p -> "/kubepods/burstable/pod" + p.getMetadata().getUid(), true, 100_000));

        assertThat(withCgroups.sandboxConfig(pod(), 0).cgroupParent()).isEqualTo("/kubepods/burstable/podu1");
        assertThat(factory.sandboxConfig(pod(), 0).cgroupParent()).isEmpty();
    }

    @Test
    void labelsAnnotationsLogPathAndMounts() throws Exception {
        MountTable.assumeCanMount();
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36")
                .addNewVolumeMount().withName("data").withMountPath("/data").withReadOnly(true).endVolumeMount()
                .addNewVolumeMount().withName("data").withMountPath("/sub").withSubPath("nested/dir").endVolumeMount()
                .build();
        Path data = Files.createDirectories(tmp.resolve("data"));
        ContainerConfig cfg = withSubPaths().containerConfig(pod(c), c, 3, "10.1.2.3", Map.of("data", volume("data", data)),
                Path.of("/var/lib/kubelet/pods/u1/etc-hosts"), Path.of("/var/lib/kubelet/pods/u1/containers/app/abcd"),
                ImageUser.ROOT);
        assertThat(cfg.labels()).containsEntry(Labels.POD_NAME, "web-node-a").containsEntry(Labels.POD_NAMESPACE, "prod")
                .containsEntry(Labels.POD_UID, "u1").containsEntry(Labels.CONTAINER_NAME, "app")
                .containsEntry(Labels.NODE_NAME, "node-a");
        assertThat(cfg.annotations()).containsEntry(Labels.CONTAINER_RESTART_COUNT, "3")
                .containsEntry(Labels.CONTAINER_HASH, ContainerHash.of(c))
                .containsEntry(Labels.POD_TERMINATION_GRACE_PERIOD, "45")
                .containsEntry(Labels.CONTAINER_TERMINATION_MESSAGE_PATH, "/dev/termination-log");
        assertThat(cfg.logPath()).isEqualTo("app/3.log");
        assertThat(cfg.metadata().attempt()).isEqualTo(3);
        assertThat(cfg.mounts()).containsExactly(
                new Mount("/data", data.toString(), true),
                new Mount("/sub", tmp.resolve("root/pods/u1/volume-subpaths/data/app/1").toString(), false),
                new Mount("/etc/hosts", "/var/lib/kubelet/pods/u1/etc-hosts", false),
                new Mount("/dev/termination-log", "/var/lib/kubelet/pods/u1/containers/app/abcd", false));
        assertThat(data.resolve("nested/dir")).isDirectory();
    }

    @Test
    void aSubPathThatIsNotThereIsMadeWithItsVolumesModeAndGroup() throws Exception {
        MountTable.assumeCanMount();
        // An emptyDir given to the pod's fsGroup: setgid, the group's.
        Path data = Files.createDirectories(tmp.resolve("data"));
        Files.setAttribute(data, "unix:gid", 4321);
        Files.setAttribute(data, "unix:mode", 02777);
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36")
                .addNewVolumeMount().withName("data").withMountPath("/sub").withSubPath("a/b").endVolumeMount().build();
        withSubPaths().containerConfig(pod(c), c, 0, "", Map.of("data", volume("data", data)), null, null, ImageUser.ROOT);
        for (Path made : List.of(data.resolve("a"), data.resolve("a/b"))) {
            assertThat(Files.getAttribute(made, "unix:gid")).as(made.toString()).isEqualTo(4321);
            assertThat(Integer.toOctalString((Integer) Files.getAttribute(made, "unix:mode") & 07777)).as(made.toString())
                    .isEqualTo("2777");
        }
    }

    @Test
    void subPathMayNotEscapeItsVolume() {
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36")
                .addNewVolumeMount().withName("data").withMountPath("/x").withSubPath("../../etc").endVolumeMount().build();
        assertThatThrownBy(() -> factory.containerConfig(pod(c), c, 0, "", Map.of("data", volume("data", Path.of("/tmp/v"))), null,
                null, ImageUser.ROOT))
                .hasMessage("unable to provision SubPath `../../etc`: must not contain '..'");
    }

    @Test
    void sandboxPublishesHostPortsAndCarriesPodIdentity() throws Exception {
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36")
                .addNewPort().withContainerPort(8080).withHostPort(18080).withProtocol("TCP").endPort()
                .addNewPort().withContainerPort(9090).endPort().build();
        Pod pod = pod(c);
        PodSandboxConfig sb = factory.sandboxConfig(pod, 2);
        assertThat(sb.metadata().attempt()).isEqualTo(2);
        assertThat(sb.metadata().uid()).isEqualTo("u1");
        assertThat(sb.portMappings()).containsExactly(new PortMapping("TCP", 8080, 18080, ""));
        assertThat(sb.labels()).containsEntry("app", "web").containsEntry(Labels.POD_UID, "u1");
        assertThat(sb.annotations()).containsEntry("team", "a");
        assertThat(sb.logDirectory()).isEqualTo("/var/log/pods/prod_web-node-a_u1");
        assertThat(sb.hostname()).isEqualTo("web-node-a");
        assertThat(sb.namespaceOptions().network()).isEqualTo(NamespaceMode.POD);
        assertThat(sb.oomScoreAdj()).isZero();
        // No cluster DNS here: the pod gets the host's resolver file, in full, as upstream's Default policy.
        var host = io.jkubelet.core.dns.ResolvConf.read(Path.of("/etc/resolv.conf"));
        assertThat(sb.dnsConfig().servers()).isEqualTo(host.servers());
        assertThat(sb.dnsConfig().searches()).isEqualTo(host.searches());
        assertThat(sb.image()).isEqualTo("jkubelet/pause:3.9");
    }

    @Test
    void sandboxOnTheNodeNetworkGetsNoHostnameOfItsOwn() throws Exception {
        Pod pod = pod(new ContainerBuilder().withName("app").withImage("busybox:1.36").build());
        pod.getSpec().setHostNetwork(true);

        PodSandboxConfig sb = factory.sandboxConfig(pod, 0);

        assertThat(sb.namespaceOptions().network()).isEqualTo(NamespaceMode.NODE);
        assertThat(sb.hostname()).isEmpty();
    }

    @Test
    void clusterDnsGivesKubeletSearchPath() throws Exception {
        var withDns = new ContainerConfigFactory(new NodeContext("node-a", List.of("192.168.1.10"), Path.of("/p"), Path.of("/c"),
                "pause", List.of("10.96.0.10"), "cluster.local", x -> x, ""), (p, c) -> 0);
        var dns = withDns.sandboxConfig(pod(new ContainerBuilder().withName("a").withImage("x:1").build()), 0).dnsConfig();
        assertThat(dns.servers()).containsExactly("10.96.0.10");
        assertThat(dns.searches()).containsExactly("prod.svc.cluster.local", "svc.cluster.local", "cluster.local");
        assertThat(dns.options()).containsExactly("ndots:5");
    }

    @Test
    void withoutARunAsUserTheContainerRunsAsTheImagesUserByUidOrNameAndARunAsGroupJoinsIt() throws Exception {
        Container plain = new ContainerBuilder().withName("app").withImage("busybox:1.36").build();
        var numeric = factory.containerConfig(pod(plain), plain, 0, "", Map.of(), null, null, ImageUser.uid(1000))
                .securityContext();
        assertThat(numeric.runAsUser()).isEqualTo(1000L);
        assertThat(numeric.runAsUsername()).isEmpty();
        var named = factory.containerConfig(pod(plain), plain, 0, "", Map.of(), null, null, ImageUser.named("nobody"))
                .securityContext();
        assertThat(named.runAsUser()).isNull();
        assertThat(named.runAsUsername()).isEqualTo("nobody");
        assertThat(factory.containerConfig(pod(plain), plain, 0, "", Map.of(), null, null, ImageUser.ROOT)
                .securityContext().runAsUser()).as("an image without a user runs as root, said so").isEqualTo(0L);

        Container grouped = new ContainerBuilder(plain).withNewSecurityContext().withRunAsGroup(3000L)
                .endSecurityContext().build();
        var joined = factory.containerConfig(pod(grouped), grouped, 0, "", Map.of(), null, null, ImageUser.uid(1000))
                .securityContext();
        assertThat(joined.runAsUser()).isEqualTo(1000L);
        assertThat(joined.runAsGroup()).isEqualTo(3000L);

        Container explicit = new ContainerBuilder(plain).withNewSecurityContext().withRunAsUser(2000L)
                .endSecurityContext().build();
        var own = factory.containerConfig(pod(explicit), explicit, 0, "", Map.of(), null, null,
                ImageUser.named("nobody")).securityContext();
        assertThat(own.runAsUser()).isEqualTo(2000L);
        assertThat(own.runAsUsername()).as("the pod's user wins over the image's").isEmpty();
    }

    @Test
    void aContainerThatWouldBreakItsRunAsNonRootPolicyGetsNoConfig() {
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36").withNewSecurityContext()
                .withRunAsNonRoot(true).endSecurityContext().build();
        assertThatThrownBy(() -> factory.containerConfig(pod(c), c, 0, "", Map.of(), null, null, ImageUser.ROOT))
                .isInstanceOf(ContainerConfigFactory.ConfigException.class)
                .hasMessage("container has runAsNonRoot and image will run as root (pod: \"web-node-a_prod(u1)\", "
                        + "container: app)");
    }

    @Test
    void eachContainersAppArmorProfileGoesToTheRuntimeFromItsFieldItsAnnotationOrThePods() throws Exception {
        Container fielded = new ContainerBuilder().withName("fielded").withImage("busybox:1.36").withNewSecurityContext()
                .withNewAppArmorProfile().withType("Localhost").withLocalhostProfile("k8s-nginx ").endAppArmorProfile()
                .endSecurityContext().build();
        Container annotated = new ContainerBuilder().withName("annotated").withImage("busybox:1.36").build();
        Container inherits = new ContainerBuilder().withName("inherits").withImage("busybox:1.36").build();
        Pod pod = new PodBuilder(pod(fielded, annotated, inherits)).editMetadata()
                .addToAnnotations("container.apparmor.security.beta.kubernetes.io/annotated", "unconfined").endMetadata()
                .editSpec().withNewSecurityContext().withNewAppArmorProfile().withType("RuntimeDefault")
                .endAppArmorProfile().endSecurityContext().endSpec().build();

        assertThat(factory.containerConfig(pod, fielded, 0, "", Map.of(), null, null, ImageUser.ROOT).securityContext()
                .apparmor()).isEqualTo(io.jkubelet.core.runtime.SecurityProfile.localhost("k8s-nginx"));
        assertThat(factory.containerConfig(pod, annotated, 0, "", Map.of(), null, null, ImageUser.ROOT)
                .securityContext().apparmor()).isEqualTo(io.jkubelet.core.runtime.SecurityProfile.UNCONFINED);
        assertThat(factory.containerConfig(pod, inherits, 0, "", Map.of(), null, null, ImageUser.ROOT)
                .securityContext().apparmor()).isEqualTo(io.jkubelet.core.runtime.SecurityProfile.RUNTIME_DEFAULT);
        assertThat(factory.containerConfig(pod(inherits), inherits, 0, "", Map.of(), null, null, ImageUser.ROOT)
                .securityContext().apparmor()).as("none asked for").isNull();
    }

    /** A mounted volume as the volume manager hands it over: no attributes of its own. */
    private static VolumeInfo volume(String name, Path path) {
        return new VolumeInfo(name, name, path, false, VolumeMetrics.DU, null, true);
    }
}
