package io.jkubelet.docker;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.InternetProtocol;
import com.github.dockerjava.api.model.LogConfig;
import com.github.dockerjava.api.model.PropagationMode;
import com.github.dockerjava.api.model.Ports;
import com.github.dockerjava.api.model.RestartPolicy;
import com.github.dockerjava.api.model.SELContext;
import com.github.dockerjava.api.model.Volume;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.KeyValue;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PortMapping;
import io.jkubelet.core.runtime.SecurityProfile;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Translates CRI sandbox and container configs into Docker create calls, as dockershim's
 * {@code makeSandboxDockerConfig}, {@code CreateContainer}, {@code updateCreateConfig} and
 * {@code security_context.go} did. Pure: no Docker call.
 */
final class CreateSpecs {
    private CreateSpecs() {}

    /** Docker's "the node's namespace" mode. */
    static final String MODE_HOST = "host";
    /** The sandbox's CPU weight: it only sleeps (dockershim's defaultSandboxCPUshares). */
    static final int SANDBOX_CPU_SHARES = 2;
    static final String NO_NEW_PRIVILEGES = "no-new-privileges";

    /** @param cgroupDriver Docker's cgroup driver, which the cgroup parent is written for */
    static CreateSpec sandbox(PodSandboxConfig c, DockerRuntimeOptions options, String cgroupDriver) {
        require(c.metadata() != null, "pod sandbox config: metadata is missing");
        require(c.image() != null && !c.image().isBlank(),
                "pod sandbox config of pod " + c.metadata().name() + ": the sandbox (pause) image is missing");
        NamespaceOptions ns = c.namespaceOptions() != null ? c.namespaceOptions() : NamespaceOptions.POD_DEFAULT;
        boolean hostNetwork = ns.network() == NamespaceMode.NODE;

        HostConfig hc = HostConfig.newHostConfig()
                .withRestartPolicy(RestartPolicy.noRestart())
                // The sandbox owns the pod's IPC namespace; "shareable" lets the app containers join it.
                .withIpcMode(ns.ipc() == NamespaceMode.NODE ? MODE_HOST : "shareable")
                .withNetworkMode(hostNetwork ? MODE_HOST : "default")
                .withOomScoreAdj(c.oomScoreAdj())
                .withCpuShares(SANDBOX_CPU_SHARES)
                .withPrivileged(c.privileged())
                .withSecurityOpts(SeccompOptions.of(c.seccomp(), "sandbox " + c.metadata().name()))
                .withLogConfig(new LogConfig(LogConfig.LoggingType.JSON_FILE, Map.of()));
        if (ns.pid() == NamespaceMode.NODE) {
            hc.withPidMode(MODE_HOST);
        }
        if (c.cgroupParent() != null && !c.cgroupParent().isEmpty()) {
            hc.withCgroupParent(CgroupParents.forDocker(c.cgroupParent(), cgroupDriver));
        }
        if (!c.sysctls().isEmpty()) {
            hc.withSysctls(new LinkedHashMap<>(c.sysctls()));
        }
        if (c.dnsConfig() != null) {
            if (!c.dnsConfig().servers().isEmpty()) {
                hc.withDns(c.dnsConfig().servers());
            }
            if (!c.dnsConfig().searches().isEmpty()) {
                hc.withDnsSearch(c.dnsConfig().searches());
            }
            if (!c.dnsConfig().options().isEmpty()) {
                hc.withDnsOptions(c.dnsConfig().options());
            }
        }
        List<ExposedPort> exposed = new ArrayList<>();
        Ports bindings = new Ports();
        for (PortMapping pm : c.portMappings()) {
            if (pm.hostPort() == 0) {
                continue; // only hostPort mappings are published, as in dockershim
            }
            ExposedPort port = new ExposedPort(pm.containerPort(), protocol(pm.protocol(), c.metadata().name()));
            if (!exposed.contains(port)) {
                exposed.add(port);
            }
            String hostIp = pm.hostIp() == null || pm.hostIp().isEmpty() ? null : pm.hostIp();
            bindings.bind(port, new Ports.Binding(hostIp, Integer.toString(pm.hostPort())));
        }
        if (!exposed.isEmpty()) {
            hc.withPortBindings(bindings);
        }
        return new CreateSpec(DockerNames.sandboxName(c.metadata()), c.image(),
                DockerLabels.forSandbox(c.labels(), c.annotations()),
                hostNetwork ? null : c.hostname(), List.of(), List.of(), List.of(), null, null,
                false, false, false, exposed, hc);
    }

    /** An app container, in its sandbox's cgroup parent as dockershim put it. */
    static CreateSpec container(String sandboxId, ContainerConfig c, PodSandboxConfig sandbox,
                                DockerRuntimeOptions options, String cgroupDriver) {
        require(c.metadata() != null, "container config: metadata is missing");
        String what = "container " + c.metadata().name();
        require(c.image() != null && !c.image().isBlank(), "container config of " + what + ": image is missing");
        require(sandbox != null && sandbox.metadata() != null,
                "container config of " + what + ": the sandbox config is missing");
        String logPath = c.logPath() == null || c.logPath().isEmpty()
                ? "" : Path.of(sandbox.logDirectory(), c.logPath()).toString();

        HostConfig hc = HostConfig.newHostConfig()
                .withRestartPolicy(RestartPolicy.noRestart())
                .withBinds(binds(c.mounts(), what))
                .withLogConfig(new LogConfig(LogConfig.LoggingType.JSON_FILE, new LinkedHashMap<>(options.logOptions())));
        List<String> securityOpts = new ArrayList<>(SeccompOptions.of(
                c.securityContext() == null ? SecurityProfile.UNCONFINED : c.securityContext().seccomp(), what));
        applyResources(hc, c.resources());
        String user = null;
        LinuxContainerSecurityContext sc = c.securityContext();
        NamespaceOptions ns = sc != null && sc.namespaceOptions() != null ? sc.namespaceOptions()
                : NamespaceOptions.POD_DEFAULT;
        if (sc != null) {
            user = user(sc, what);
            if (!sc.supplementalGroups().isEmpty()) {
                hc.withGroupAdd(sc.supplementalGroups().stream().map(String::valueOf).toList());
            }
            hc.withPrivileged(sc.privileged()).withReadonlyRootfs(sc.readonlyRootfs());
            if (!sc.addCapabilities().isEmpty()) {
                hc.withCapAdd(capabilities(sc.addCapabilities(), what, "add"));
            }
            if (!sc.dropCapabilities().isEmpty()) {
                hc.withCapDrop(capabilities(sc.dropCapabilities(), what, "drop"));
            }
            if (sc.noNewPrivileges()) {
                securityOpts.add(NO_NEW_PRIVILEGES);
            }
        }
        hc.withSecurityOpts(securityOpts);
        // The app container joins the sandbox's namespaces: one IP, one localhost and one IPC for the pod.
        String sandboxMode = "container:" + sandboxId;
        hc.withNetworkMode(sandboxMode).withIpcMode(sandboxMode);
        if (ns.network() == NamespaceMode.NODE) {
            hc.withUtSMode(MODE_HOST);
        }
        if (ns.pid() == NamespaceMode.POD) {
            hc.withPidMode(sandboxMode); // shareProcessNamespace
        } else if (ns.pid() == NamespaceMode.NODE) {
            hc.withPidMode(MODE_HOST);
        }
        if (sandbox.cgroupParent() != null && !sandbox.cgroupParent().isEmpty()) {
            hc.withCgroupParent(CgroupParents.forDocker(sandbox.cgroupParent(), cgroupDriver));
        }
        List<String> env = c.envs().stream().map(CreateSpecs::env).toList();
        return new CreateSpec(DockerNames.containerName(sandbox.metadata(), c.metadata()), c.image(),
                DockerLabels.forContainer(c.labels(), c.annotations(), sandboxId, logPath), null,
                c.command(), c.args(), env, c.workingDir(), user, c.tty(), c.stdin(), c.stdinOnce(), List.of(), hc);
    }

    private static void applyResources(HostConfig hc, LinuxContainerResources r) {
        if (r == null) {
            return;
        }
        if (r.memoryLimitInBytes() > 0) {
            // Memory and MemorySwap alike: the container gets no swap, as dockershim did.
            hc.withMemory(r.memoryLimitInBytes()).withMemorySwap(r.memoryLimitInBytes());
        }
        if (r.cpuShares() > 0) {
            hc.withCpuShares((int) Math.min(Integer.MAX_VALUE, r.cpuShares()));
        }
        if (r.cpuQuota() > 0) {
            hc.withCpuQuota(r.cpuQuota());
        }
        if (r.cpuPeriod() > 0) {
            hc.withCpuPeriod(r.cpuPeriod());
        }
        hc.withOomScoreAdj(r.oomScoreAdj());
    }

    private static String user(LinuxContainerSecurityContext sc, String what) {
        if (sc.runAsUser() == null) {
            require(sc.runAsGroup() == null, what + ": runAsGroup is specified without a runAsUser");
            return null;
        }
        return sc.runAsGroup() == null ? sc.runAsUser().toString() : sc.runAsUser() + ":" + sc.runAsGroup();
    }

    private static Capability[] capabilities(List<String> names, String what, String list) {
        List<Capability> caps = new ArrayList<>();
        for (String name : names) {
            String bare = name.toUpperCase(Locale.ROOT);
            bare = bare.startsWith("CAP_") ? bare.substring(4) : bare;
            try {
                caps.add(Capability.valueOf(bare));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(what + ": unknown capability \"" + name
                        + "\" in securityContext.capabilities." + list, e);
            }
        }
        return caps.toArray(Capability[]::new);
    }

    static List<Bind> binds(List<Mount> mounts, String what) {
        List<Bind> binds = new ArrayList<>();
        for (Mount m : mounts) {
            require(m.hostPath() != null && !m.hostPath().isEmpty(), what + ": a mount has no host path");
            require(m.containerPath() != null && m.containerPath().startsWith("/"),
                    what + ": mount path \"" + m.containerPath() + "\" must be absolute");
            binds.add(new Bind(m.hostPath(), new Volume(m.containerPath()),
                    m.readOnly() ? AccessMode.ro : AccessMode.rw, SELContext.none, null,
                    propagation(m.propagation(), what)));
        }
        return binds;
    }

    private static PropagationMode propagation(String propagation, String what) {
        if (propagation == null || propagation.isEmpty() || propagation.equals("private")) {
            return PropagationMode.DEFAULT_MODE; // private is Docker's default for binds
        }
        return switch (propagation) {
            case "rslave" -> PropagationMode.RSLAVE; // HostToContainer
            case "rshared" -> PropagationMode.RSHARED; // Bidirectional
            default -> throw new IllegalArgumentException(what + ": unknown mount propagation \"" + propagation
                    + "\" (expected private, rslave or rshared)");
        };
    }

    private static InternetProtocol protocol(String protocol, String pod) {
        if (protocol == null || protocol.isEmpty()) {
            return InternetProtocol.TCP;
        }
        return switch (protocol.toUpperCase(Locale.ROOT)) {
            case "TCP" -> InternetProtocol.TCP;
            case "UDP" -> InternetProtocol.UDP;
            case "SCTP" -> InternetProtocol.SCTP;
            default -> throw new IllegalArgumentException("pod " + pod + ": unknown port protocol \"" + protocol
                    + "\" (expected TCP, UDP or SCTP)");
        };
    }

    private static String env(KeyValue kv) {
        return kv.key() + "=" + (kv.value() == null ? "" : kv.value());
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
