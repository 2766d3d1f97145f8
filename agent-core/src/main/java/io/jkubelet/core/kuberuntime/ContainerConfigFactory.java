package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.podutil.AppArmorProfiles;
import io.jkubelet.core.podutil.Resources;
import io.jkubelet.core.podutil.PodSpecs;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.jkubelet.core.config.PodCodec;
import io.jkubelet.core.dns.DnsConfigurer;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.Device;
import io.jkubelet.core.runtime.DnsConfig;
import io.jkubelet.core.runtime.KeyValue;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.PortMapping;
import io.jkubelet.core.runtime.SecurityProfile;
import io.jkubelet.core.volumemanager.VolumeInfo;
import io.jkubelet.core.util.Expansion;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Builds the runtime configs of a pod's sandbox and containers from its spec (upstream
 * {@code generatePodSandboxConfig} and {@code generateContainerConfig}), with the labels and annotations
 * the kubelet reads back after a restart.
 */
public final class ContainerConfigFactory {
    public static final String DEFAULT_TERMINATION_MESSAGE_PATH = "/dev/termination-log";

    /** A container's configuration could not be built (waiting reason {@code CreateContainerConfigError}). */
    public static final class ConfigException extends Exception {
        public ConfigException(String message) {
            super(message);
        }
    }

    private final NodeContext node;
    private final OomScorePolicy oomPolicy;
    private final ContainerEnv env;
    private final ContainerCgroups cgroups;
    private final SeccompProfiles seccomp;
    private final DnsConfigurer dns;
    /** The node's managers' additions to each container (upstream's {@code containerManager.GetResources}). */
    private final RunContainerOptions.Source managerOptions;
    private final ContainerMounts containerMounts;

    public ContainerConfigFactory(NodeContext node, OomScorePolicy oomPolicy) {
        this(node, oomPolicy, PodObjects.standalone(), (ref, type, reason, message) -> { }, Map::of);
    }

    public ContainerConfigFactory(NodeContext node, OomScorePolicy oomPolicy, PodObjects objects, EventRecorder recorder,
            Supplier<Map<String, Quantity>> allocatable) {
        this(node, oomPolicy, objects, recorder, allocatable, ContainerCgroups.DEFAULT);
    }

    /** With upstream's default root directory and {@code seccompDefault} off. */
    public ContainerConfigFactory(NodeContext node, OomScorePolicy oomPolicy, PodObjects objects, EventRecorder recorder,
            Supplier<Map<String, Quantity>> allocatable,
            ContainerCgroups cgroups) {
        this(node, oomPolicy, objects, recorder, allocatable, cgroups,
                SeccompProfiles.under(Path.of("/var/lib/kubelet"), false));
    }

    /**
     * @param objects the ConfigMaps and Secrets of {@code envFrom} and {@code valueFrom} references
     * @param recorder gets the {@code InvalidEnvironmentVariableNames} events of {@code envFrom}
     * @param allocatable the node's allocatable, which {@code resourceFieldRef} limits a container does not set default to
     * @param cgroups the pod's cgroup parent and how CPU limits are enforced
     * @param seccomp which seccomp profile each container runs under
     */
    public ContainerConfigFactory(NodeContext node, OomScorePolicy oomPolicy, PodObjects objects, EventRecorder recorder,
            Supplier<Map<String, Quantity>> allocatable,
            ContainerCgroups cgroups, SeccompProfiles seccomp) {
        this(node, oomPolicy, objects, recorder, allocatable, cgroups, seccomp, RunContainerOptions.Source.NONE);
    }

    /**
     * @param managerOptions what the node's managers add to each container (the device manager's devices); asked
     *     before each container is made
     */
    public ContainerConfigFactory(NodeContext node, OomScorePolicy oomPolicy, PodObjects objects, EventRecorder recorder,
            Supplier<Map<String, Quantity>> allocatable,
            ContainerCgroups cgroups, SeccompProfiles seccomp, RunContainerOptions.Source managerOptions) {
        this(node, oomPolicy, objects, recorder, allocatable, cgroups, seccomp, managerOptions, ContainerMounts.defaults());
    }

    /** @param mounts what makes each container's mounts, its subPaths' bind mounts under the pods' directories */
    public ContainerConfigFactory(NodeContext node, OomScorePolicy oomPolicy, PodObjects objects, EventRecorder recorder,
            Supplier<Map<String, Quantity>> allocatable,
            ContainerCgroups cgroups, SeccompProfiles seccomp, RunContainerOptions.Source managerOptions,
            ContainerMounts mounts) {
        this.managerOptions = managerOptions;
        this.containerMounts = mounts;
        this.node = node;
        this.seccomp = seccomp;
        this.dns = new DnsConfigurer(node.resolvConf(), node.clusterDns(), node.clusterDomain(), node.hostIps(),
                node.nodeName(), recorder);
        this.oomPolicy = oomPolicy;
        this.cgroups = cgroups;
        this.env = new ContainerEnv(node, new EnvRefs(objects, recorder), objects.services(), allocatable);
    }

    /** The pod's log directory: {@code <podLogsDir>/<namespace>_<name>_<uid>}. */
    public Path podLogsDir(Pod pod) {
        var m = pod.getMetadata();
        return podLogsDir(node.podLogsDir(), m.getNamespace(), m.getName(), m.getUid());
    }

    /** {@code <podLogsDir>/<namespace>_<name>_<uid>}, upstream's {@code BuildPodLogsDirectory}. */
    public static Path podLogsDir(Path podLogsRoot, String namespace, String name, String uid) {
        return podLogsRoot.resolve(namespace + "_" + name + "_" + uid);
    }

    /**
     * The pod's sandbox config (upstream {@code generatePodSandboxConfig}).
     *
     * @throws ConfigException when the pod's DNS settings cannot be made (the host's {@code resolvConf} unreadable)
     */
    public PodSandboxConfig sandboxConfig(Pod pod, int attempt) throws ConfigException {
        var meta = pod.getMetadata();
        Map<String, String> labels = new LinkedHashMap<>();
        if (meta.getLabels() != null) {
            labels.putAll(meta.getLabels());
        }
        labels.put(Labels.POD_NAME, meta.getName());
        labels.put(Labels.POD_NAMESPACE, meta.getNamespace());
        labels.put(Labels.POD_UID, meta.getUid());
        labels.put(Labels.NODE_NAME, node.nodeName());
        Map<String, String> annotations = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();

        List<PortMapping> ports = new ArrayList<>();
        for (Container c : PodSpecs.allContainers(pod)) {
            if (c.getPorts() == null) {
                continue;
            }
            for (ContainerPort p : c.getPorts()) {
                if (p.getHostPort() != null && p.getHostPort() > 0) {
                    ports.add(new PortMapping(p.getProtocol() == null ? "TCP" : p.getProtocol(), p.getContainerPort(),
                            p.getHostPort(), p.getHostIP() == null ? "" : p.getHostIP()));
                }
            }
        }
        var spec = pod.getSpec();
        NamespaceOptions ns = namespaceOptions(pod);
        boolean privileged = PodSpecs.allContainers(pod).stream()
                .anyMatch(c -> c.getSecurityContext() != null && Boolean.TRUE.equals(c.getSecurityContext().getPrivileged()));
        Map<String, String> sysctls = new LinkedHashMap<>();
        if (spec.getSecurityContext() != null && spec.getSecurityContext().getSysctls() != null) {
            spec.getSecurityContext().getSysctls().forEach(s -> sysctls.put(s.getName(), s.getValue()));
        }
        return new PodSandboxConfig(
                new PodSandboxMetadata(meta.getName(), meta.getUid(), meta.getNamespace(), attempt),
                // As upstream: a pod on the node's network has the node's hostname, so the sandbox gets none (runc
                // cannot set one without a UTS namespace of its own).
                ns.network() == NamespaceMode.NODE ? "" : hostname(pod), podLogsDir(pod).toString(), dnsConfig(pod),
                ports, labels, annotations,
                cgroups.cgroupParent().apply(pod), ns,
                node.oomScoreClamp().applyAsInt(OomScorePolicy.SANDBOX_OOM_SCORE_ADJ), node.podInfraImage(),
                privileged, sysctls, seccomp.forSandbox());
    }

    private DnsConfig dnsConfig(Pod pod) throws ConfigException {
        try {
            return dns.podDns(pod);
        } catch (IOException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** The pod's hostname: {@code spec.hostname}, else its name, cut to 63 characters as upstream. */
    static String hostname(Pod pod) {
        String h = pod.getSpec().getHostname();
        if (h == null || h.isEmpty()) {
            h = pod.getMetadata().getName();
        }
        if (h.length() > 63) {
            h = h.substring(0, 63);
            while (!h.isEmpty() && (h.endsWith("-") || h.endsWith("."))) {
                h = h.substring(0, h.length() - 1);
            }
        }
        return h;
    }

    /**
     * The config of one container (upstream {@code generateContainerConfig}).
     *
     * @param volumes the pod's mounted volumes, by name
     * @param etcHosts the kubelet-managed hosts file, or null for none
     * @param terminationMessageFile the host file mounted at the termination message path
     * @param imageUser the user the container's image runs as ({@link ImageUser#of}): the container runs as it unless
     *     the pod says otherwise, and the {@code runAsNonRoot} policy is checked against it
     * @throws ConfigException when the container would break its {@code runAsNonRoot} policy, or its environment,
     *     seccomp profile, mounts or block devices cannot be made
     */
    public ContainerConfig containerConfig(Pod pod, Container c, int restartCount, String podIp,
                                           Map<String, VolumeInfo> volumes, Path etcHosts, Path terminationMessageFile,
                                           ImageUser imageUser)
            throws ConfigException {
        RunContainerOptions opts;
        try {
            opts = managerOptions.get(pod, c);
        } catch (Exception e) {
            throw new ConfigException(e.getMessage());
        }
        // After the managers' devices, as upstream's GenerateRunContainerOptions appends makeBlockVolumes' to them.
        List<Device> devices = new ArrayList<>(opts.devices());
        devices.addAll(BlockVolumeDevices.of(c, volumes));
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Labels.POD_NAME, pod.getMetadata().getName());
        labels.put(Labels.POD_NAMESPACE, pod.getMetadata().getNamespace());
        labels.put(Labels.POD_UID, pod.getMetadata().getUid());
        labels.put(Labels.CONTAINER_NAME, c.getName());
        labels.put(Labels.NODE_NAME, node.nodeName());

        // The managers' annotations first: the kubelet's own override any of the same name (upstream).
        Map<String, String> annotations = new LinkedHashMap<>(opts.annotations());
        annotations.put(Labels.CONTAINER_HASH, ContainerHash.of(c));
        annotations.put(Labels.CONTAINER_RESTART_COUNT, Integer.toString(restartCount));
        String tmPath = c.getTerminationMessagePath() == null || c.getTerminationMessagePath().isEmpty()
                ? DEFAULT_TERMINATION_MESSAGE_PATH : c.getTerminationMessagePath();
        annotations.put(Labels.CONTAINER_TERMINATION_MESSAGE_PATH, tmPath);
        annotations.put(Labels.CONTAINER_TERMINATION_MESSAGE_POLICY,
                c.getTerminationMessagePolicy() == null ? "File" : c.getTerminationMessagePolicy());
        Long grace = pod.getSpec().getTerminationGracePeriodSeconds();
        annotations.put(Labels.POD_TERMINATION_GRACE_PERIOD, Long.toString(grace == null ? 30 : grace));
        if (pod.getMetadata().getDeletionGracePeriodSeconds() != null) {
            annotations.put(Labels.POD_DELETION_GRACE_PERIOD, pod.getMetadata().getDeletionGracePeriodSeconds().toString());
        }
        annotations.put(Labels.CONTAINER_TYPE, PodSpecs.isInitContainer(pod, c.getName())
                ? (PodSpecs.isRestartableInitContainer(c) ? "sidecar" : "init") : "regular");
        if (c.getLifecycle() != null && c.getLifecycle().getPreStop() != null) {
            annotations.put(Labels.CONTAINER_PRESTOP_HANDLER, PodCodec.toJson(c.getLifecycle().getPreStop()));
        }
        if (c.getPorts() != null && !c.getPorts().isEmpty()) {
            annotations.put(Labels.CONTAINER_PORTS, PodCodec.toJson(c.getPorts()));
        }

        // The managers' environment comes before the container's own, as upstream's GenerateRunContainerOptions has it.
        List<KeyValue> envs = new ArrayList<>(opts.envs());
        envs.addAll(env.envs(pod, c, podIp));
        // After the run options (the environment), as upstream: a container that may not run as root is never created.
        RunAsNonRoot.verify(pod, c, imageUser);
        Map<String, String> envMap = new HashMap<>();
        envs.forEach(kv -> envMap.put(kv.key(), kv.value()));
        List<String> command = c.getCommand() == null ? List.of()
                : c.getCommand().stream().map(s -> Expansion.expand(s, envMap)).toList();
        List<String> args = c.getArgs() == null ? List.of()
                : c.getArgs().stream().map(s -> Expansion.expand(s, envMap)).toList();

        List<Mount> mounts = new ArrayList<>(opts.mounts());
        mounts.addAll(containerMounts.makeMounts(pod, c, volumes, etcHosts, terminationMessageFile, tmPath, envMap));
        return new ContainerConfig(new ContainerMetadata(c.getName(), restartCount), c.getImage(), command, args,
                c.getWorkingDir() == null ? "" : c.getWorkingDir(), envs, mounts, labels, annotations,
                c.getName() + "/" + restartCount + ".log",
                Boolean.TRUE.equals(c.getStdin()), Boolean.TRUE.equals(c.getStdinOnce()), Boolean.TRUE.equals(c.getTty()),
                resources(pod, c), securityContext(pod, c, seccompProfile(pod, c), imageUser), devices,
                opts.cdiDevices());
    }

    private SecurityProfile seccompProfile(Pod pod, Container c) throws ConfigException {
        try {
            return seccomp.forContainer(pod, c);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** Upstream {@code calculateLinuxResources}: shares from the request (or the limit), quota from the limit. */
    private LinuxContainerResources resources(Pod pod, Container c) {
        long cpuRequest = Resources.milliCpu(Resources.request(c, "cpu"));
        long cpuLimit = Resources.milliCpu(Resources.limit(c, "cpu"));
        long memLimit = Resources.bytes(Resources.limit(c, "memory"));
        long shares = Resources.milliCpuToShares(cpuRequest == 0 && cpuLimit > 0 ? cpuLimit : cpuRequest);
        long period = cgroups.cpuCfsQuotaPeriodUs();
        long quota = cgroups.cpuCfsQuota() && cpuLimit > 0 ? Resources.milliCpuToQuota(cpuLimit, period) : 0;
        int oom = node.oomScoreClamp().applyAsInt(oomPolicy.containerOomScoreAdjust(pod, c));
        return new LinuxContainerResources(quota == 0 ? 0 : period, quota, shares, memLimit, oom,
                cgroups.cpusetCpus().apply(pod, c), cgroups.cpusetMems().apply(pod, c));
    }

    /**
     * Upstream {@code determineEffectiveSecurityContext}: the container's settings over the pod's; without a
     * {@code runAsUser} the image's user, by uid or by name, so that a {@code runAsGroup} joins the image's user.
     */
    private static LinuxContainerSecurityContext securityContext(Pod pod, Container c, SecurityProfile seccomp,
                                                                 ImageUser imageUser) {
        PodSecurityContext psc = pod.getSpec().getSecurityContext();
        SecurityContext sc = c.getSecurityContext();
        Long runAsUser = sc != null && sc.getRunAsUser() != null ? sc.getRunAsUser()
                : psc != null ? psc.getRunAsUser() : null;
        String runAsUsername = "";
        if (runAsUser == null) {
            runAsUser = imageUser.uid();
            runAsUsername = imageUser.username();
        }
        Long runAsGroup = sc != null && sc.getRunAsGroup() != null ? sc.getRunAsGroup()
                : psc != null ? psc.getRunAsGroup() : null;
        List<Long> groups = new ArrayList<>();
        if (psc != null) {
            if (psc.getFsGroup() != null) groups.add(psc.getFsGroup());
            if (psc.getSupplementalGroups() != null) groups.addAll(psc.getSupplementalGroups());
        }
        boolean privileged = sc != null && Boolean.TRUE.equals(sc.getPrivileged());
        boolean readOnly = sc != null && Boolean.TRUE.equals(sc.getReadOnlyRootFilesystem());
        Capabilities caps = sc == null ? null : sc.getCapabilities();
        List<String> add = caps == null || caps.getAdd() == null ? List.of() : caps.getAdd();
        List<String> drop = caps == null || caps.getDrop() == null ? List.of() : caps.getDrop();
        boolean noNewPrivs = sc != null && Boolean.FALSE.equals(sc.getAllowPrivilegeEscalation());
        return new LinuxContainerSecurityContext(runAsUser, runAsGroup, groups, privileged, readOnly, add, drop,
                namespaceOptions(pod), noNewPrivs, seccomp, runAsUsername, appArmorProfile(pod, c));
    }

    /** Upstream {@code getAppArmorProfile}: the profile the container asks for, or null for the runtime's default. */
    private static SecurityProfile appArmorProfile(Pod pod, Container c) {
        return AppArmorProfiles.of(pod, c).map(p -> switch (p.getType()) {
            case AppArmorProfiles.RUNTIME_DEFAULT -> SecurityProfile.RUNTIME_DEFAULT;
            case AppArmorProfiles.UNCONFINED -> SecurityProfile.UNCONFINED;
            // Admission refused a Localhost profile without a name.
            default -> SecurityProfile.localhost(p.getLocalhostProfile().strip());
        }).orElse(null);
    }

    /** The pod's network, PID and IPC namespaces, shared by its sandbox and its containers. */
    private static NamespaceOptions namespaceOptions(Pod pod) {
        var spec = pod.getSpec();
        return new NamespaceOptions(
                PodSpecs.hostNetwork(pod) ? NamespaceMode.NODE : NamespaceMode.POD,
                Boolean.TRUE.equals(spec.getHostPID()) ? NamespaceMode.NODE
                        : Boolean.TRUE.equals(spec.getShareProcessNamespace()) ? NamespaceMode.POD : NamespaceMode.CONTAINER,
                Boolean.TRUE.equals(spec.getHostIPC()) ? NamespaceMode.NODE : NamespaceMode.POD);
    }
}
