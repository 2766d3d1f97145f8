package io.jkubelet.docker;

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

import io.jkubelet.docker.engine.EngineContainers;
import io.jkubelet.docker.engine.HostConfig;
import io.jkubelet.docker.engine.HostConfig.LogConfig;
import io.jkubelet.docker.engine.HostConfig.PortBinding;
import io.jkubelet.docker.engine.HostConfig.RestartPolicy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Translates CRI sandbox and container configs into Docker create calls, as dockershim's
 * {@code makeSandboxDockerConfig}, {@code CreateContainer}, {@code updateCreateConfig} and
 * {@code security_context.go} did. Pure: no Docker call.
 */
final class CreateSpecs {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(CreateSpecs.class);
    private CreateSpecs() {}

    /** Docker's "the node's namespace" mode. */
    static final String MODE_HOST = "host";
    /** The sandbox's CPU weight: it only sleeps (dockershim's defaultSandboxCPUshares). */
    static final int SANDBOX_CPU_SHARES = 2;
    static final String NO_NEW_PRIVILEGES = "no-new-privileges";
    /** Docker's log driver for the kubelet's containers: the CRI log links point at its files. */
    static final String JSON_FILE = "json-file";
    /**
     * The capabilities Docker knows (capabilities(7) without CAP_, and ALL): a name outside them fails here, naming
     * the container, rather than in Docker's create.
     */
    static final Set<String> CAPABILITIES = Set.of("ALL", "CHOWN", "DAC_OVERRIDE", "DAC_READ_SEARCH", "FOWNER",
            "FSETID", "KILL", "SETGID", "SETUID", "SETPCAP", "LINUX_IMMUTABLE", "NET_BIND_SERVICE", "NET_BROADCAST",
            "NET_ADMIN", "NET_RAW", "IPC_LOCK", "IPC_OWNER", "SYS_MODULE", "SYS_RAWIO", "SYS_CHROOT", "SYS_PTRACE",
            "SYS_PACCT", "SYS_ADMIN", "SYS_BOOT", "SYS_NICE", "SYS_RESOURCE", "SYS_TIME", "SYS_TTY_CONFIG", "MKNOD",
            "LEASE", "AUDIT_WRITE", "AUDIT_CONTROL", "SETFCAP", "MAC_OVERRIDE", "MAC_ADMIN", "SYSLOG", "WAKE_ALARM",
            "BLOCK_SUSPEND", "AUDIT_READ", "PERFMON", "BPF", "CHECKPOINT_RESTORE");

    /** @param cgroupDriver Docker's cgroup driver, which the cgroup parent is written for */
    static CreateSpec sandbox(PodSandboxConfig c, DockerRuntimeOptions options, String cgroupDriver) {
        require(c.metadata() != null, "pod sandbox config: metadata is missing");
        require(c.image() != null && !c.image().isBlank(),
                "pod sandbox config of pod " + c.metadata().name() + ": the sandbox (pause) image is missing");
        NamespaceOptions ns = c.namespaceOptions() != null ? c.namespaceOptions() : NamespaceOptions.POD_DEFAULT;
        boolean hostNetwork = ns.network() == NamespaceMode.NODE;

        HostConfig.Builder hc = HostConfig.builder()
                .restartPolicy(RestartPolicy.no())
                // The sandbox owns the pod's IPC namespace; "shareable" lets the app containers join it.
                .ipcMode(ns.ipc() == NamespaceMode.NODE ? MODE_HOST : "shareable")
                .networkMode(hostNetwork ? MODE_HOST : "default")
                .oomScoreAdj(c.oomScoreAdj())
                .cpuShares((long) SANDBOX_CPU_SHARES)
                .privileged(c.privileged())
                .securityOpt(SeccompOptions.of(c.seccomp(), "sandbox " + c.metadata().name()))
                .logConfig(new LogConfig(JSON_FILE, Map.of()));
        if (ns.pid() == NamespaceMode.NODE) {
            hc.pidMode(MODE_HOST);
        }
        if (c.cgroupParent() != null && !c.cgroupParent().isEmpty()) {
            hc.cgroupParent(CgroupParents.forDocker(c.cgroupParent(), cgroupDriver));
        }
        if (!c.sysctls().isEmpty()) {
            hc.sysctls(new LinkedHashMap<>(c.sysctls()));
        }
        if (c.dnsConfig() != null) {
            if (!c.dnsConfig().servers().isEmpty()) {
                hc.dns(c.dnsConfig().servers());
            }
            if (!c.dnsConfig().searches().isEmpty()) {
                hc.dnsSearch(c.dnsConfig().searches());
            }
            if (!c.dnsConfig().options().isEmpty()) {
                hc.dnsOptions(c.dnsConfig().options());
            }
        }
        Map<String, List<PortBinding>> bindings = new LinkedHashMap<>();
        for (PortMapping pm : c.portMappings()) {
            if (pm.hostPort() == 0) {
                continue; // only hostPort mappings are published, as in dockershim
            }
            String port = pm.containerPort() + "/" + protocol(pm.protocol(), c.metadata().name());
            String hostIp = pm.hostIp() == null || pm.hostIp().isEmpty() ? null : pm.hostIp();
            bindings.computeIfAbsent(port, p -> new ArrayList<>())
                    .add(new PortBinding(hostIp, Integer.toString(pm.hostPort())));
        }
        if (!bindings.isEmpty()) {
            hc.portBindings(bindings);
        }
        return new CreateSpec(DockerNames.sandboxName(c.metadata()), c.image(),
                DockerLabels.forSandbox(c.labels(), c.annotations()),
                hostNetwork ? null : c.hostname(), List.of(), List.of(), List.of(), null, null,
                false, false, false, List.copyOf(bindings.keySet()), hc.build());
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

        HostConfig.Builder hc = HostConfig.builder()
                .restartPolicy(RestartPolicy.no())
                .binds(binds(c.mounts(), what))
                .logConfig(new LogConfig(JSON_FILE, new LinkedHashMap<>(options.logOptions())));
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
                hc.groupAdd(sc.supplementalGroups().stream().map(String::valueOf).toList());
            }
            hc.privileged(sc.privileged()).readonlyRootfs(sc.readonlyRootfs());
            if (!sc.addCapabilities().isEmpty()) {
                hc.capAdd(capabilities(sc.addCapabilities(), what, "add"));
            }
            if (!sc.dropCapabilities().isEmpty()) {
                hc.capDrop(capabilities(sc.dropCapabilities(), what, "drop"));
            }
            if (sc.noNewPrivileges()) {
                securityOpts.add(NO_NEW_PRIVILEGES);
            }
            securityOpts.addAll(AppArmorOptions.of(sc.apparmor()));
        }
        hc.securityOpt(securityOpts);
        // The app container joins the sandbox's namespaces: one IP, one localhost and one IPC for the pod.
        String sandboxMode = "container:" + sandboxId;
        hc.networkMode(sandboxMode).ipcMode(sandboxMode);
        if (ns.network() == NamespaceMode.NODE) {
            hc.utsMode(MODE_HOST);
        }
        if (ns.pid() == NamespaceMode.POD) {
            hc.pidMode(sandboxMode); // shareProcessNamespace
        } else if (ns.pid() == NamespaceMode.NODE) {
            hc.pidMode(MODE_HOST);
        }
        if (sandbox.cgroupParent() != null && !sandbox.cgroupParent().isEmpty()) {
            hc.cgroupParent(CgroupParents.forDocker(sandbox.cgroupParent(), cgroupDriver));
        }
        if (!c.devices().isEmpty()) {
            // dockershim's mapping of CRI devices: each host path at its container path, with its cgroup permissions.
            hc.devices(c.devices().stream().map(d -> new HostConfig.DeviceMapping(d.hostPath(), d.containerPath(),
                    d.permissions())).toList());
        }
        if (!c.cdiDevices().isEmpty()) {
            log.warn("The Docker Engine API (1.41) takes no CDI devices: {} gets its device plugins' device nodes, mounts "
                    + "and environment, not CDI devices {}", what, c.cdiDevices());
        }
        List<String> env = c.envs().stream().map(CreateSpecs::env).toList();
        return new CreateSpec(DockerNames.containerName(sandbox.metadata(), c.metadata()), c.image(),
                DockerLabels.forContainer(c.labels(), c.annotations(), sandboxId, logPath), null,
                c.command(), c.args(), env, c.workingDir(), user, c.tty(), c.stdin(), c.stdinOnce(), List.of(), hc.build());
    }

    /** The engine's update of a running container's resources; an absent setting is kept, as dockershim's Go zero was. */
    static EngineContainers.UpdateConfig update(LinuxContainerResources r) {
        return new EngineContainers.UpdateConfig(positive(r.cpuShares()), positive(r.cpuPeriod()), positive(r.cpuQuota()),
                positive(r.memoryLimitInBytes()), r.cpusetCpus().isEmpty() ? null : r.cpusetCpus());
    }

    private static Long positive(long v) {
        return v > 0 ? v : null;
    }

    private static void applyResources(HostConfig.Builder hc, LinuxContainerResources r) {
        if (r == null) {
            return;
        }
        if (r.memoryLimitInBytes() > 0) {
            // Memory and MemorySwap alike: the container gets no swap, as dockershim did.
            hc.memory(r.memoryLimitInBytes()).memorySwap(r.memoryLimitInBytes());
        }
        if (r.cpuShares() > 0) {
            hc.cpuShares(r.cpuShares());
        }
        if (r.cpuQuota() > 0) {
            hc.cpuQuota(r.cpuQuota());
        }
        if (r.cpuPeriod() > 0) {
            hc.cpuPeriod(r.cpuPeriod());
        }
        hc.oomScoreAdj(r.oomScoreAdj());
        if (!r.cpusetCpus().isEmpty()) {
            hc.cpusetCpus(r.cpusetCpus());
        }
        if (!r.cpusetMems().isEmpty()) {
            hc.cpusetMems(r.cpusetMems());
        }
    }

    /**
     * Docker's {@code User} as dockershim's {@code modifyContainerConfig} makes it: the uid, else the user's name, and
     * {@code :gid} after it; none leaves the image's own user. A group alone Docker could not join to a user.
     */
    private static String user(LinuxContainerSecurityContext sc, String what) {
        String user = sc.runAsUser() != null ? sc.runAsUser().toString()
                : sc.runAsUsername().isEmpty() ? null : sc.runAsUsername();
        if (user == null) {
            require(sc.runAsGroup() == null, what + ": runAsGroup is specified without a runAsUser");
            return null;
        }
        return sc.runAsGroup() == null ? user : user + ":" + sc.runAsGroup();
    }

    /** Capability names as Docker takes them: upper case, without {@code CAP_}. */
    private static List<String> capabilities(List<String> names, String what, String list) {
        List<String> caps = new ArrayList<>();
        for (String name : names) {
            String bare = name.toUpperCase(Locale.ROOT);
            bare = bare.startsWith("CAP_") ? bare.substring(4) : bare;
            if (!CAPABILITIES.contains(bare)) {
                throw new IllegalArgumentException(what + ": unknown capability \"" + name
                        + "\" in securityContext.capabilities." + list);
            }
            caps.add(bare);
        }
        return caps;
    }

    /** Docker's binds, {@code host:container:ro|rw[,propagation]}, as dockershim's {@code generateMountBindings}. */
    static List<String> binds(List<Mount> mounts, String what) {
        List<String> binds = new ArrayList<>();
        for (Mount m : mounts) {
            require(m.hostPath() != null && !m.hostPath().isEmpty(), what + ": a mount has no host path");
            require(m.containerPath() != null && m.containerPath().startsWith("/"),
                    what + ": mount path \"" + m.containerPath() + "\" must be absolute");
            String propagation = propagation(m.propagation(), what);
            binds.add(m.hostPath() + ":" + m.containerPath() + ":" + (m.readOnly() ? "ro" : "rw")
                    + (propagation.isEmpty() ? "" : "," + propagation));
        }
        return binds;
    }

    /** The bind's propagation option; none for private, Docker's default for binds. */
    private static String propagation(String propagation, String what) {
        if (propagation == null || propagation.isEmpty() || propagation.equals("private")) {
            return "";
        }
        return switch (propagation) {
            case "rslave" -> "rslave"; // HostToContainer
            case "rshared" -> "rshared"; // Bidirectional
            default -> throw new IllegalArgumentException(what + ": unknown mount propagation \"" + propagation
                    + "\" (expected private, rslave or rshared)");
        };
    }

    /** The protocol as Docker writes it in a port key ({@code 80/tcp}). */
    private static String protocol(String protocol, String pod) {
        if (protocol == null || protocol.isEmpty()) {
            return "tcp";
        }
        return switch (protocol.toUpperCase(Locale.ROOT)) {
            case "TCP" -> "tcp";
            case "UDP" -> "udp";
            case "SCTP" -> "sctp";
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
