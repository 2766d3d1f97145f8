package io.jkubelet.cri;

import io.jkubelet.core.runtime.DnsConfig;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.core.runtime.PortMapping;
import io.jkubelet.core.runtime.SecurityProfile;
import io.jkubelet.cri.v1.CriApi;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sandboxes through the fake CRI runtime: the config as the runtime receives it, its answers as the port's records. */
class CriSandboxTranslationTest extends FakeCriTestBase {

    private static final PodSandboxConfig WEB = new PodSandboxConfig(
            new PodSandboxMetadata("web", "0c5e9a2e-uid", "shop", 2), "web-0", "/var/log/pods/shop_web_0c5e9a2e-uid",
            new DnsConfig(List.of("10.96.0.10"), List.of("shop.svc.cluster.local", "svc.cluster.local"),
                    List.of("ndots:5")),
            List.of(new PortMapping("tcp", 80, 8080, "127.0.0.1"), new PortMapping("UDP", 53, 5353, null),
                    new PortMapping(null, 9000, 9001, "")),
            Map.of("io.kubernetes.pod.name", "web", "io.kubernetes.pod.uid", "0c5e9a2e-uid"),
            Map.of("kubernetes.io/config.source", "api"), "/kubepods/burstable/pod0c5e9a2e-uid",
            new NamespaceOptions(NamespaceMode.NODE, NamespaceMode.CONTAINER, NamespaceMode.POD), -998,
            "registry.k8s.io/pause:3.9", true, Map.of("net.ipv4.ip_unprivileged_port_start", "0"),
            SecurityProfile.RUNTIME_DEFAULT);

    @Test
    void theSandboxConfigReachesTheRuntimeFieldForField() {
        String id = cri.runPodSandbox(WEB);

        CriApi.PodSandboxConfig sent = fake.recorder.request("RunPodSandbox", CriApi.RunPodSandboxRequest.class).getConfig();
        assertThat(id).isEqualTo("sandbox-1");
        assertThat(sent.getMetadata()).isEqualTo(CriApi.PodSandboxMetadata.newBuilder()
                .setName("web").setUid("0c5e9a2e-uid").setNamespace("shop").setAttempt(2).build());
        assertThat(sent.getHostname()).isEqualTo("web-0");
        assertThat(sent.getLogDirectory()).isEqualTo("/var/log/pods/shop_web_0c5e9a2e-uid");
        assertThat(sent.getDnsConfig().getServersList()).containsExactly("10.96.0.10");
        assertThat(sent.getDnsConfig().getSearchesList()).containsExactly("shop.svc.cluster.local", "svc.cluster.local");
        assertThat(sent.getDnsConfig().getOptionsList()).containsExactly("ndots:5");
        assertThat(sent.getPortMappingsList()).containsExactly(
                CriApi.PortMapping.newBuilder().setProtocol(CriApi.Protocol.TCP).setContainerPort(80).setHostPort(8080)
                        .setHostIp("127.0.0.1").build(),
                CriApi.PortMapping.newBuilder().setProtocol(CriApi.Protocol.UDP).setContainerPort(53).setHostPort(5353)
                        .build(),
                CriApi.PortMapping.newBuilder().setProtocol(CriApi.Protocol.TCP).setContainerPort(9000).setHostPort(9001)
                        .build());
        assertThat(sent.getLabelsMap()).isEqualTo(WEB.labels());
        assertThat(sent.getAnnotationsMap()).isEqualTo(WEB.annotations());
        CriApi.LinuxPodSandboxConfig linux = sent.getLinux();
        assertThat(linux.getCgroupParent()).isEqualTo("/kubepods/burstable/pod0c5e9a2e-uid");
        assertThat(linux.getSysctlsMap()).containsExactly(Map.entry("net.ipv4.ip_unprivileged_port_start", "0"));
        assertThat(linux.getSecurityContext().getNamespaceOptions()).isEqualTo(CriApi.NamespaceOption.newBuilder()
                .setNetwork(CriApi.NamespaceMode.NODE).setPid(CriApi.NamespaceMode.CONTAINER)
                .setIpc(CriApi.NamespaceMode.POD).build());
        assertThat(linux.getSecurityContext().getPrivileged()).isTrue();
        assertThat(linux.getSecurityContext().getSeccomp().getProfileType())
                .isEqualTo(CriApi.SecurityProfile.ProfileType.RuntimeDefault);
    }

    @Test
    void theRuntimeHandlerGoesInTheRequestBesideTheConfig() {
        cri.runPodSandbox(WEB, "runsc");

        assertThat(fake.recorder.request("RunPodSandbox", CriApi.RunPodSandboxRequest.class).getRuntimeHandler())
                .isEqualTo("runsc");
    }

    @Test
    void noRuntimeClassSendsTheDefaultHandler() {
        cri.runPodSandbox(WEB);

        assertThat(fake.recorder.request("RunPodSandbox", CriApi.RunPodSandboxRequest.class).getRuntimeHandler())
                .isEmpty();
    }

    @Test
    void whatTheConfigLeavesOpenIsLeftUnsetForTheRuntimesDefault() {
        PodSandboxConfig plain = new PodSandboxConfig(new PodSandboxMetadata("p", "u", "default", 0), null, null, null,
                List.of(), Map.of(), Map.of(), "", NamespaceOptions.POD_DEFAULT, 0, "pause", false, Map.of(),
                SecurityProfile.localhost("/var/lib/kubelet/seccomp/audit.json"));

        cri.runPodSandbox(plain);

        CriApi.PodSandboxConfig sent = fake.recorder.request("RunPodSandbox", CriApi.RunPodSandboxRequest.class).getConfig();
        assertThat(sent.hasDnsConfig()).as("the runtime's resolv.conf").isFalse();
        assertThat(sent.getHostname()).isEmpty();
        assertThat(sent.getLogDirectory()).isEmpty();
        assertThat(sent.getLinux().getCgroupParent()).isEmpty();
        assertThat(sent.getLinux().getSecurityContext().getSeccomp()).isEqualTo(CriApi.SecurityProfile.newBuilder()
                .setProfileType(CriApi.SecurityProfile.ProfileType.Localhost)
                .setLocalhostRef("/var/lib/kubelet/seccomp/audit.json").build());
    }

    @Test
    void aPortMappingOfAnUnknownProtocolIsRefusedBeforeTheRuntimeIsAsked() {
        PodSandboxConfig icmp = new PodSandboxConfig(WEB.metadata(), "web", null, null,
                List.of(new PortMapping("ICMP", 7, 7, null)), Map.of(), Map.of(), "", NamespaceOptions.POD_DEFAULT, 0,
                "pause", false, Map.of());

        assertThatThrownBy(() -> cri.runPodSandbox(icmp)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port mapping 7 has an unknown protocol \"ICMP\"; expected TCP, UDP or SCTP");
        assertThat(fake.recorder.methods()).doesNotContain("RunPodSandbox");
    }

    @Test
    void aSandboxStatusIsTranslatedWithItsAddressesNamespacesAndTimes() {
        fake.runtime.sandboxes.put("s1", CriApi.PodSandboxStatus.newBuilder().setId("s1")
                .setMetadata(CriApi.PodSandboxMetadata.newBuilder().setName("web").setUid("u1").setNamespace("shop")
                        .setAttempt(3))
                .setState(CriApi.PodSandboxState.SANDBOX_NOTREADY).setCreatedAt(1_700_000_000_987_654_321L)
                .setNetwork(CriApi.PodSandboxNetworkStatus.newBuilder().setIp("10.88.0.12")
                        .addAdditionalIps(CriApi.PodIP.newBuilder().setIp("fd00::12")))
                .setLinux(CriApi.LinuxPodSandboxStatus.newBuilder().setNamespaces(CriApi.Namespace.newBuilder()
                        .setOptions(CriApi.NamespaceOption.newBuilder().setNetwork(CriApi.NamespaceMode.NODE)
                                .setPid(CriApi.NamespaceMode.POD).setIpc(CriApi.NamespaceMode.CONTAINER))))
                .putLabels("app", "web").putAnnotations("seen", "yes").build());

        PodSandboxStatus status = cri.podSandboxStatus("s1");

        assertThat(status).isEqualTo(new PodSandboxStatus("s1", new PodSandboxMetadata("web", "u1", "shop", 3),
                PodSandboxState.SANDBOX_NOTREADY, Instant.parse("2023-11-14T22:13:20.987654321Z"), "10.88.0.12",
                List.of("fd00::12"), new NamespaceOptions(NamespaceMode.NODE, NamespaceMode.POD, NamespaceMode.CONTAINER),
                Map.of("app", "web"), Map.of("seen", "yes")));
        assertThat(fake.recorder.request("PodSandboxStatus", CriApi.PodSandboxStatusRequest.class).getVerbose())
                .as("the plain status: the verbose one is the runtime's JSON, read only for usage").isFalse();
    }

    @Test
    void aSandboxRunStoppedAndRemovedGoesThroughItsStatesAndASecondRemoveSucceeds() {
        fake.runtime.podIp = "10.88.0.33";
        String id = cri.runPodSandbox(WEB);
        assertThat(cri.podSandboxStatus(id).state()).isEqualTo(PodSandboxState.SANDBOX_READY);
        assertThat(cri.podSandboxStatus(id).ip()).isEqualTo("10.88.0.33");
        assertThat(cri.podSandboxStatus(id).createdAt()).isEqualTo(Instant.ofEpochSecond(0, fake.runtime.nowNanos));

        cri.stopPodSandbox(id);
        assertThat(cri.podSandboxStatus(id).state()).isEqualTo(PodSandboxState.SANDBOX_NOTREADY);
        cri.removePodSandbox(id);
        cri.removePodSandbox(id);

        assertThat(fake.runtime.sandboxes).isEmpty();
        assertThat(fake.recorder.calls("RemovePodSandbox")).hasSize(2)
                .allSatisfy(c -> assertThat(((CriApi.RemovePodSandboxRequest) c.request()).getPodSandboxId()).isEqualTo(id));
    }

    @Test
    void aListSendsItsFilterAndTranslatesEverySandbox() {
        String ready = cri.runPodSandbox(WEB);
        String stopped = cri.runPodSandbox(sandboxConfig("old"));
        cri.stopPodSandbox(stopped);

        List<PodSandbox> readyWeb = cri.listPodSandbox(new PodSandboxFilter(null, PodSandboxState.SANDBOX_READY,
                Map.of("io.kubernetes.pod.name", "web")));

        assertThat(fake.recorder.request("ListPodSandbox", CriApi.ListPodSandboxRequest.class).getFilter())
                .isEqualTo(CriApi.PodSandboxFilter.newBuilder()
                        .setState(CriApi.PodSandboxStateValue.newBuilder().setState(CriApi.PodSandboxState.SANDBOX_READY))
                        .putLabelSelector("io.kubernetes.pod.name", "web").build());
        assertThat(readyWeb).containsExactly(new PodSandbox(ready, WEB.metadata(), PodSandboxState.SANDBOX_READY,
                Instant.ofEpochSecond(0, fake.runtime.nowNanos), WEB.labels(), WEB.annotations()));

        assertThat(cri.listPodSandbox(new PodSandboxFilter(stopped, PodSandboxState.SANDBOX_NOTREADY, null)))
                .singleElement().satisfies(s -> assertThat(s.state()).isEqualTo(PodSandboxState.SANDBOX_NOTREADY));
        assertThat(fake.recorder.request("ListPodSandbox", CriApi.ListPodSandboxRequest.class).getFilter().getId())
                .isEqualTo(stopped);
        assertThat(cri.listPodSandbox(PodSandboxFilter.ALL)).extracting(PodSandbox::id).containsExactly(ready, stopped);
        assertThat(fake.recorder.request("ListPodSandbox", CriApi.ListPodSandboxRequest.class).getFilter())
                .isEqualTo(CriApi.PodSandboxFilter.getDefaultInstance());
    }
}
