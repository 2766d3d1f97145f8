package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The built jar with seccompDefault, allowedUnsafeSysctls, resolvConf and the cluster's DNS settings, on the real
 * engine: what the containers' processes see is read back through their termination messages.
 */
class KernelSecurityIT extends AgentTestBase {

    /** One container that says what it saw in its termination message and ends, never restarted. */
    private static String pod(String name, String spec, String script) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: %1$s}
                spec:
                  restartPolicy: Never
                %3$s
                  containers:
                  - name: c
                    image: %2$s
                    command: ["sh", "-c", %4$s]
                """.formatted(name, IMAGE, spec.indent(2).stripTrailing(), "'" + script + " > /dev/termination-log'");
    }

    private ContainerStateTerminated terminated(String name) {
        Pod pod = awaitPod(name, Duration.ofSeconds(60), p -> p.getStatus().getContainerStatuses() != null
                && container(p, "c").map(c -> c.getState().getTerminated() != null).orElse(false));
        return container(pod, "c").orElseThrow().getState().getTerminated();
    }

    @Test
    void seccompDefaultSysctlsAndDnsActOnThePodsContainers() throws Exception {
        Path root = dir.resolve("root");
        Files.createDirectories(root.resolve("seccomp"));
        Files.writeString(root.resolve("seccomp/no-mkdir.json"), """
                {"defaultAction": "SCMP_ACT_ALLOW",
                 "syscalls": [{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO"}]}
                """);
        Path resolvConf = Files.writeString(dir.resolve("resolv.conf"), """
                nameserver 10.0.0.2
                search corp.example
                options timeout:2
                """);
        Path config = configFile("""
                seccompDefault: true
                allowedUnsafeSysctls: ["net.core.somaxconn"]
                resolvConf: %s
                clusterDNS: ["10.96.0.10"]
                clusterDomain: cluster.local
                """.formatted(resolvConf));
        startAgent("--config", config.toString());

        String unshare = "unshare -U true 2>/dev/null; echo unshare=$?";
        agent.writeManifest("confined.yaml", pod("confined", "", unshare));
        agent.writeManifest("unconfined.yaml", pod("unconfined",
                "securityContext: {seccompProfile: {type: Unconfined}}", unshare));
        agent.writeManifest("localhost.yaml", pod("localhost",
                "securityContext: {seccompProfile: {type: Localhost, localhostProfile: no-mkdir.json}}",
                "mkdir /tmp/d 2>/dev/null; echo mkdir=$?"));
        agent.writeManifest("missing.yaml", pod("missing",
                "securityContext: {seccompProfile: {type: Localhost, localhostProfile: absent.json}}", "true"));
        agent.writeManifest("tuned.yaml", pod("tuned", """
                securityContext:
                  sysctls: [{name: net.core.somaxconn, value: "1024"}, {name: net.ipv4.ip_unprivileged_port_start, value: "80"}]""",
                "cat /proc/sys/net/core/somaxconn /proc/sys/net/ipv4/ip_unprivileged_port_start"));
        agent.writeManifest("forbidden.yaml", pod("forbidden",
                "securityContext: {sysctls: [{name: net.ipv4.ip_forward, value: \"1\"}]}", "true"));
        agent.writeManifest("cluster-dns.yaml", pod("cluster-dns", "", "cat /etc/resolv.conf"));
        agent.writeManifest("host-dns.yaml", pod("host-dns", "dnsPolicy: Default", "cat /etc/resolv.conf"));

        // seccompDefault: a container that asks for no profile runs under Docker's default, which refuses unshare.
        assertThat(terminated("confined").getMessage()).isEqualTo("unshare=1\n");
        assertThat(terminated("unconfined").getMessage()).isEqualTo("unshare=0\n");
        assertThat(terminated("localhost").getMessage()).isEqualTo("mkdir=1\n");
        Pod missing = awaitPod("missing", Duration.ofSeconds(60), p -> container(p, "c")
                .map(c -> c.getState().getWaiting() != null && "CreateContainerError".equals(c.getState().getWaiting().getReason()))
                .orElse(false));
        assertThat(container(missing, "c").orElseThrow().getState().getWaiting().getMessage())
                .contains("cannot load seccomp profile \"" + root.resolve("seccomp/absent.json") + "\"");

        assertThat(terminated("tuned").getMessage()).isEqualTo("1024\n80\n");
        Pod forbidden = awaitPod("forbidden", Duration.ofSeconds(60), p -> "Failed".equals(p.getStatus().getPhase()));
        assertThat(forbidden.getStatus().getReason()).isEqualTo("SysctlForbidden");
        assertThat(forbidden.getStatus().getMessage())
                .isEqualTo("Pod was rejected: forbidden sysctl: \"net.ipv4.ip_forward\" not allowlisted");

        assertThat(terminated("cluster-dns").getMessage().lines()).containsExactlyInAnyOrder(
                "search default.svc.cluster.local svc.cluster.local cluster.local corp.example",
                "nameserver 10.96.0.10", "options ndots:5");
        assertThat(terminated("host-dns").getMessage().lines()).containsExactlyInAnyOrder(
                "search corp.example", "nameserver 10.0.0.2", "options timeout:2");
    }

    @Test
    void anEmptyResolvConfLeavesDefaultPodsWithoutHostDns() throws Exception {
        startAgent("--config", configFile("resolvConf: \"\"\n").toString());

        agent.writeManifest("no-dns.yaml", pod("no-dns", "dnsPolicy: Default", "cat /etc/resolv.conf"));

        // The local machine's resolver and no search domain (Docker writes no search line for '.').
        assertThat(terminated("no-dns").getMessage()).isEqualTo("nameserver 127.0.0.1\n");
    }

    @Test
    void anAllowedUnsafeSysctlThatIsNotNamespacedStopsTheAgentAtStart() throws Exception {
        Path config = configFile("""
                allowedUnsafeSysctls: ["kernel.panic"]
                """);

        agent = new Agent(dir, "e2e-" + java.util.UUID.randomUUID().toString().substring(0, 8),
                java.util.List.of("--config", config.toString()));

        assertThatThrownBy(agent::start).hasMessageStartingWith("jkubelet exited with 1:");
        assertThat(agent.logText())
                .contains("allowedUnsafeSysctls: the sysctls \"kernel.panic\" are not known to be namespaced");
    }
}
