package io.jkubelet.cri;

import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.DnsConfig;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PortMapping;
import io.jkubelet.core.runtime.SecurityProfile;
import io.jkubelet.cri.v1.CriApi;

import java.util.Locale;

/**
 * The runtime port's sandbox and container configs as the CRI's. The port's records are CRI-shaped, so this is a
 * field-by-field copy; the sandbox image is the runtime's own setting (containerd's {@code sandbox_image}), as with
 * upstream's kubelet on CRI, so the port's {@code image} of a sandbox is not sent.
 */
final class RuntimeToCri {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RuntimeToCri.class);
    private RuntimeToCri() {}

    static CriApi.PodSandboxConfig sandboxConfig(PodSandboxConfig c) {
        CriApi.LinuxSandboxSecurityContext.Builder security = CriApi.LinuxSandboxSecurityContext.newBuilder()
                .setNamespaceOptions(namespaces(c.namespaceOptions()))
                .setPrivileged(c.privileged())
                .setSeccomp(profile(c.seccomp()));
        CriApi.LinuxPodSandboxConfig.Builder linux = CriApi.LinuxPodSandboxConfig.newBuilder()
                .setSecurityContext(security)
                .putAllSysctls(c.sysctls());
        if (c.cgroupParent() != null && !c.cgroupParent().isEmpty()) {
            linux.setCgroupParent(c.cgroupParent());
        }
        CriApi.PodSandboxConfig.Builder b = CriApi.PodSandboxConfig.newBuilder()
                .setMetadata(CriApi.PodSandboxMetadata.newBuilder()
                        .setName(c.metadata().name())
                        .setUid(c.metadata().uid())
                        .setNamespace(c.metadata().namespace())
                        .setAttempt(c.metadata().attempt()))
                .putAllLabels(c.labels())
                .putAllAnnotations(c.annotations())
                .setLinux(linux);
        if (c.hostname() != null) {
            b.setHostname(c.hostname());
        }
        if (c.logDirectory() != null) {
            b.setLogDirectory(c.logDirectory());
        }
        if (c.dnsConfig() != null) {
            b.setDnsConfig(dns(c.dnsConfig()));
        }
        for (PortMapping pm : c.portMappings()) {
            b.addPortMappings(portMapping(pm));
        }
        return b.build();
    }

    static CriApi.ContainerConfig containerConfig(ContainerConfig c) {
        CriApi.ContainerConfig.Builder b = CriApi.ContainerConfig.newBuilder()
                .setMetadata(CriApi.ContainerMetadata.newBuilder()
                        .setName(c.metadata().name())
                        .setAttempt(c.metadata().attempt()))
                .setImage(CriApi.ImageSpec.newBuilder().setImage(c.image()))
                .addAllCommand(c.command())
                .addAllArgs(c.args())
                .putAllLabels(c.labels())
                .putAllAnnotations(c.annotations())
                .setStdin(c.stdin())
                .setStdinOnce(c.stdinOnce())
                .setTty(c.tty())
                .setLinux(CriApi.LinuxContainerConfig.newBuilder()
                        .setResources(resources(c.resources()))
                        .setSecurityContext(security(c.securityContext())));
        if (c.workingDir() != null) {
            b.setWorkingDir(c.workingDir());
        }
        if (c.logPath() != null) {
            b.setLogPath(c.logPath());
        }
        c.envs().forEach(kv -> b.addEnvs(CriApi.KeyValue.newBuilder().setKey(kv.key()).setValue(kv.value())));
        c.mounts().forEach(m -> b.addMounts(mount(m)));
        // Upstream's makeDevices: a device plugin's device nodes as CRI devices.
        c.devices().forEach(d -> b.addDevices(CriApi.Device.newBuilder().setContainerPath(d.containerPath())
                .setHostPath(d.hostPath()).setPermissions(d.permissions())));
        if (!c.cdiDevices().isEmpty()) {
            log.warn("CRI v1 of Kubernetes v1.20 (this adapter's API) has no CDI devices: container {} gets its device "
                    + "plugins' device nodes, mounts and environment, not CDI devices {}", c.metadata().name(), c.cdiDevices());
        }
        return b.build();
    }

    static CriApi.LinuxContainerResources resources(LinuxContainerResources r) {
        return CriApi.LinuxContainerResources.newBuilder()
                .setCpuPeriod(r.cpuPeriod())
                .setCpuQuota(r.cpuQuota())
                .setCpuShares(r.cpuShares())
                .setMemoryLimitInBytes(r.memoryLimitInBytes())
                .setOomScoreAdj(r.oomScoreAdj())
                .setCpusetCpus(r.cpusetCpus())
                .setCpusetMems(r.cpusetMems())
                .build();
    }

    static CriApi.LinuxContainerSecurityContext security(LinuxContainerSecurityContext s) {
        CriApi.LinuxContainerSecurityContext.Builder b = CriApi.LinuxContainerSecurityContext.newBuilder()
                .setCapabilities(CriApi.Capability.newBuilder()
                        .addAllAddCapabilities(s.addCapabilities())
                        .addAllDropCapabilities(s.dropCapabilities()))
                .setPrivileged(s.privileged())
                .setReadonlyRootfs(s.readonlyRootfs())
                .addAllSupplementalGroups(s.supplementalGroups())
                .setNoNewPrivs(s.noNewPrivileges())
                .setSeccomp(profile(s.seccomp()));
        if (s.namespaceOptions() != null) {
            b.setNamespaceOptions(namespaces(s.namespaceOptions()));
        }
        if (s.runAsUser() != null) {
            b.setRunAsUser(CriApi.Int64Value.newBuilder().setValue(s.runAsUser()));
        }
        if (s.runAsGroup() != null) {
            b.setRunAsGroup(CriApi.Int64Value.newBuilder().setValue(s.runAsGroup()));
        }
        b.setRunAsUsername(s.runAsUsername());
        if (s.apparmor() != null) {
            // Both forms, as upstream v1.30 sends them: runtimes of CRI v1 before 1.30 read only the string.
            b.setApparmor(profile(s.apparmor())).setApparmorProfile(appArmorProfileName(s.apparmor()));
        }
        return b.build();
    }

    /** The deprecated {@code apparmor_profile}: {@code runtime/default}, {@code unconfined}, {@code localhost/<name>}. */
    static String appArmorProfileName(SecurityProfile p) {
        return switch (p.type()) {
            case RUNTIME_DEFAULT -> "runtime/default";
            case UNCONFINED -> "unconfined";
            case LOCALHOST -> "localhost/" + p.localhostRef();
        };
    }

    static CriApi.SecurityProfile profile(SecurityProfile p) {
        CriApi.SecurityProfile.ProfileType type = switch (p.type()) {
            case RUNTIME_DEFAULT -> CriApi.SecurityProfile.ProfileType.RuntimeDefault;
            case UNCONFINED -> CriApi.SecurityProfile.ProfileType.Unconfined;
            case LOCALHOST -> CriApi.SecurityProfile.ProfileType.Localhost;
        };
        return CriApi.SecurityProfile.newBuilder().setProfileType(type).setLocalhostRef(p.localhostRef()).build();
    }

    static CriApi.NamespaceOption namespaces(NamespaceOptions o) {
        return CriApi.NamespaceOption.newBuilder()
                .setNetwork(mode(o.network()))
                .setPid(mode(o.pid()))
                .setIpc(mode(o.ipc()))
                .build();
    }

    static CriApi.NamespaceMode mode(NamespaceMode m) {
        return switch (m) {
            case POD -> CriApi.NamespaceMode.POD;
            case CONTAINER -> CriApi.NamespaceMode.CONTAINER;
            case NODE -> CriApi.NamespaceMode.NODE;
        };
    }

    static CriApi.Mount mount(Mount m) {
        CriApi.MountPropagation propagation = switch (m.propagation() == null ? "private" : m.propagation()) {
            case "rslave" -> CriApi.MountPropagation.PROPAGATION_HOST_TO_CONTAINER;
            case "rshared" -> CriApi.MountPropagation.PROPAGATION_BIDIRECTIONAL;
            case "private" -> CriApi.MountPropagation.PROPAGATION_PRIVATE;
            default -> throw new IllegalArgumentException("mount " + m.containerPath() + " has an unknown propagation \""
                    + m.propagation() + "\"; expected private, rslave or rshared");
        };
        return CriApi.Mount.newBuilder()
                .setContainerPath(m.containerPath())
                .setHostPath(m.hostPath())
                .setReadonly(m.readOnly())
                .setPropagation(propagation)
                .build();
    }

    static CriApi.DNSConfig dns(DnsConfig d) {
        return CriApi.DNSConfig.newBuilder()
                .addAllServers(d.servers())
                .addAllSearches(d.searches())
                .addAllOptions(d.options())
                .build();
    }

    static CriApi.PortMapping portMapping(PortMapping pm) {
        String protocol = pm.protocol() == null ? "TCP" : pm.protocol().toUpperCase(Locale.ROOT);
        CriApi.Protocol p = switch (protocol) {
            case "TCP" -> CriApi.Protocol.TCP;
            case "UDP" -> CriApi.Protocol.UDP;
            case "SCTP" -> CriApi.Protocol.SCTP;
            default -> throw new IllegalArgumentException("port mapping " + pm.containerPort() + " has an unknown protocol \""
                    + pm.protocol() + "\"; expected TCP, UDP or SCTP");
        };
        CriApi.PortMapping.Builder b = CriApi.PortMapping.newBuilder()
                .setProtocol(p)
                .setContainerPort(pm.containerPort())
                .setHostPort(pm.hostPort());
        if (pm.hostIp() != null) {
            b.setHostIp(pm.hostIp());
        }
        return b.build();
    }
}
