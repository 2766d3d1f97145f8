package io.jkubelet.core.sysctl;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.jkubelet.core.admission.PodAdmitResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sysctl admission as upstream's patternAllowlist: the safe set, allowedUnsafeSysctls, the host's namespaces. */
class SysctlAllowlistTest {
    private static final List<String> SAFE = SafeSysctls.forKernel("6.1.0-18-amd64");
    private static final SysctlAllowlist ONLY_SAFE = SysctlAllowlist.of(SAFE, List.of());

    @ParameterizedTest
    @ValueSource(strings = {"kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.tcp_syncookies",
            "net.ipv4.ping_group_range", "net.ipv4.ip_unprivileged_port_start", "net.ipv4.ip_local_reserved_ports",
            "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
            "net.ipv4.tcp_keepalive_probes", "net/ipv4/ip_local_port_range"})
    void everySafeSysctlIsAdmittedWithoutAnyAllowedUnsafeOne(String sysctl) {
        assertThat(ONLY_SAFE.admit(pod(false, false, sysctl), List.of())).isEqualTo(PodAdmitResult.ADMIT);
    }

    @Test
    void anUnsafeSysctlIsRefusedAsSysctlForbiddenWithUpstreamsMessage() {
        PodAdmitResult result = ONLY_SAFE.admit(pod(false, false, "net.ipv4.ip_forward", "kernel.msgmax"), List.of());

        assertThat(result).isEqualTo(PodAdmitResult.reject("SysctlForbidden",
                "forbidden sysctl: \"net.ipv4.ip_forward\" not allowlisted"));
    }

    @Test
    void allowedUnsafeSysctlsAdmitNamesAndPrefixes() {
        SysctlAllowlist allowlist = SysctlAllowlist.of(SAFE, List.of("kernel.msg*", "net.core.somaxconn"));

        assertThat(allowlist.admit(pod(false, false, "kernel.msgmax", "net.core.somaxconn"), List.of()))
                .isEqualTo(PodAdmitResult.ADMIT);
        assertThat(allowlist.admit(pod(false, false, "net.core.rmem_max"), List.of()).message())
                .isEqualTo("forbidden sysctl: \"net.core.rmem_max\" not allowlisted");
    }

    @ParameterizedTest
    @CsvSource({
            "true, false, net.ipv4.ip_local_port_range, '\"net.ipv4.ip_local_port_range\" not allowed with host Net enabled'",
            "false, true, kernel.shm_rmid_forced, '\"kernel.shm_rmid_forced\" not allowed with host IPC enabled'"})
    void aSysctlOfANamespaceThePodSharesWithTheNodeIsRefused(boolean hostNetwork, boolean hostIpc, String sysctl,
                                                             String why) {
        assertThat(ONLY_SAFE.admit(pod(hostNetwork, hostIpc, sysctl), List.of()))
                .isEqualTo(PodAdmitResult.reject("SysctlForbidden", "forbidden sysctl: " + why));
        assertThat(ONLY_SAFE.admit(pod(hostIpc, hostNetwork, sysctl), List.of())).isEqualTo(PodAdmitResult.ADMIT);
    }

    @Test
    void aPodWithoutSysctlsIsAdmitted() {
        Pod plain = new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewSpec().endSpec().build();

        assertThat(ONLY_SAFE.admit(plain, List.of())).isEqualTo(PodAdmitResult.ADMIT);
    }

    @Test
    void allowedUnsafeSysctlsThatAreMalformedOrNotNamespacedAreRefusedNamingThem() {
        assertThatThrownBy(() -> SysctlAllowlist.of(SAFE, List.of("Net.Core")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sysctl \"Net.Core\" must have at most 253 characters and match regex "
                        + "([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*([a-z0-9][-_a-z0-9]*)?[a-z0-9*]");
        assertThatThrownBy(() -> SysctlAllowlist.of(SAFE, List.of("kernel.panic")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the sysctls \"kernel.panic\" are not known to be namespaced");
        assertThatThrownBy(() -> SysctlAllowlist.of(SAFE, List.of("vm.*")))
                .hasMessage("the sysctls \"vm.\" are not known to be namespaced");
        assertThatThrownBy(() -> SysctlAllowlist.of(SAFE, List.of("net." + "a".repeat(250))))
                .hasMessageStartingWith("sysctl \"net.aaa");
    }

    @Test
    void sysctlsNamespacedOnlyByNewerKernelsAreSafeOnlyThere() {
        assertThat(SafeSysctls.forKernel("4.5.0")).contains("net.ipv4.tcp_keepalive_time")
                .doesNotContain("net.ipv4.tcp_fin_timeout");
        assertThat(SafeSysctls.forKernel("3.10.0-1160.el7.x86_64")).containsExactly("kernel.shm_rmid_forced",
                "net.ipv4.ip_local_port_range", "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range",
                "net.ipv4.ip_unprivileged_port_start");
        assertThat(SafeSysctls.forKernel("unknown")).hasSize(5);
        assertThat(SafeSysctls.forKernel("6.1.0-18-amd64")).hasSize(10);
    }

    private static Pod pod(boolean hostNetwork, boolean hostIpc, String... sysctls) {
        return new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewSpec()
                .withHostNetwork(hostNetwork).withHostIPC(hostIpc).withNewSecurityContext()
                .withSysctls(java.util.Arrays.stream(sysctls).map(s -> new Sysctl(s, "1")).toList())
                .endSecurityContext().endSpec().build();
    }
}
