package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.podutil.Resources;
import io.jkubelet.core.podutil.PodSpecs;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.ObjectFieldSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.ResourceFieldSelector;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.jkubelet.core.config.PodCodec;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerMetadata;
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
import io.jkubelet.core.util.Expansion;
import io.jkubelet.core.volume.ApiVolumes;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    private final EnvRefs envRefs;
    private final io.jkubelet.core.objects.ServiceLister services;
    private final java.util.function.Supplier<Map<String, io.fabric8.kubernetes.api.model.Quantity>> allocatable;

    public ContainerConfigFactory(NodeContext node, OomScorePolicy oomPolicy) {
        this(node, oomPolicy, PodObjects.standalone(), (ref, type, reason, message) -> { }, Map::of);
    }

    /**
     * @param objects the ConfigMaps and Secrets of {@code envFrom} and {@code valueFrom} references
     * @param recorder gets the {@code InvalidEnvironmentVariableNames} events of {@code envFrom}
     * @param allocatable the node's allocatable, which {@code resourceFieldRef} limits a container does not set default to
     */
    public ContainerConfigFactory(NodeContext node, OomScorePolicy oomPolicy, PodObjects objects, EventRecorder recorder,
            java.util.function.Supplier<Map<String, io.fabric8.kubernetes.api.model.Quantity>> allocatable) {
        this.node = node;
        this.oomPolicy = oomPolicy;
        this.envRefs = new EnvRefs(objects, recorder);
        this.services = objects.services();
        this.allocatable = allocatable;
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

    public PodSandboxConfig sandboxConfig(Pod pod, int attempt) {
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
        for (Container c : allContainers(pod)) {
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
        boolean privileged = allContainers(pod).stream()
                .anyMatch(c -> c.getSecurityContext() != null && Boolean.TRUE.equals(c.getSecurityContext().getPrivileged()));
        Map<String, String> sysctls = new LinkedHashMap<>();
        if (spec.getSecurityContext() != null && spec.getSecurityContext().getSysctls() != null) {
            spec.getSecurityContext().getSysctls().forEach(s -> sysctls.put(s.getName(), s.getValue()));
        }
        return new PodSandboxConfig(
                new PodSandboxMetadata(meta.getName(), meta.getUid(), meta.getNamespace(), attempt),
                hostname(pod), podLogsDir(pod).toString(), dnsConfig(pod), ports, labels, annotations, "", ns,
                node.oomScoreClamp().applyAsInt(OomScorePolicy.SANDBOX_OOM_SCORE_ADJ), node.podInfraImage(),
                privileged, sysctls);
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

    private DnsConfig dnsConfig(Pod pod) {
        String policy = pod.getSpec().getDnsPolicy() == null ? "ClusterFirst" : pod.getSpec().getDnsPolicy();
        boolean hostNetwork = PodSpecs.hostNetwork(pod);
        boolean clusterFirst = "ClusterFirst".equals(policy) && !hostNetwork || "ClusterFirstWithHostNet".equals(policy);
        List<String> servers = new ArrayList<>();
        List<String> searches = new ArrayList<>();
        List<String> options = new ArrayList<>();
        if (clusterFirst && !node.clusterDns().isEmpty()) {
            servers.addAll(node.clusterDns());
            String ns = pod.getMetadata().getNamespace();
            String d = node.clusterDomain();
            searches.add(ns + ".svc." + d);
            searches.add("svc." + d);
            searches.add(d);
            options.add("ndots:5");
        } else if (!"None".equals(policy)) {
            // Default, or ClusterFirst with no cluster DNS configured: the runtime copies the node's resolv.conf.
            if (pod.getSpec().getDnsConfig() == null) {
                return null;
            }
        }
        var extra = pod.getSpec().getDnsConfig();
        if (extra != null) {
            if (extra.getNameservers() != null) servers.addAll(extra.getNameservers());
            if (extra.getSearches() != null) searches.addAll(extra.getSearches());
            if (extra.getOptions() != null) {
                extra.getOptions().forEach(o -> options.add(o.getValue() == null ? o.getName() : o.getName() + ":" + o.getValue()));
            }
        }
        return new DnsConfig(servers.subList(0, Math.min(3, servers.size())), searches, options);
    }

    /**
     * The config of one container.
     *
     * @param volumePaths host paths of the pod's volumes, by name
     * @param etcHosts the kubelet-managed hosts file, or null for none
     * @param terminationMessageFile the host file mounted at the termination message path
     */
    public ContainerConfig containerConfig(Pod pod, Container c, int restartCount, String podIp,
                                           Map<String, Path> volumePaths, Path etcHosts, Path terminationMessageFile)
            throws ConfigException {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Labels.POD_NAME, pod.getMetadata().getName());
        labels.put(Labels.POD_NAMESPACE, pod.getMetadata().getNamespace());
        labels.put(Labels.POD_UID, pod.getMetadata().getUid());
        labels.put(Labels.CONTAINER_NAME, c.getName());
        labels.put(Labels.NODE_NAME, node.nodeName());

        Map<String, String> annotations = new LinkedHashMap<>();
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

        List<KeyValue> envs = envs(pod, c, podIp);
        Map<String, String> envMap = new HashMap<>();
        envs.forEach(kv -> envMap.put(kv.key(), kv.value()));
        List<String> command = c.getCommand() == null ? List.of()
                : c.getCommand().stream().map(s -> Expansion.expand(s, envMap)).toList();
        List<String> args = c.getArgs() == null ? List.of()
                : c.getArgs().stream().map(s -> Expansion.expand(s, envMap)).toList();

        return new ContainerConfig(new ContainerMetadata(c.getName(), restartCount), c.getImage(), command, args,
                c.getWorkingDir() == null ? "" : c.getWorkingDir(), envs,
                mounts(pod, c, volumePaths, etcHosts, terminationMessageFile, tmPath, envMap), labels, annotations,
                c.getName() + "/" + restartCount + ".log",
                Boolean.TRUE.equals(c.getStdin()), Boolean.TRUE.equals(c.getStdinOnce()), Boolean.TRUE.equals(c.getTty()),
                resources(pod, c), securityContext(pod, c));
    }

    private List<Mount> mounts(Pod pod, Container c, Map<String, Path> volumePaths, Path etcHosts,
                               Path terminationMessageFile, String tmPath, Map<String, String> env)
            throws ConfigException {
        List<Mount> mounts = new ArrayList<>();
        boolean mountsEtcHosts = false;
        if (c.getVolumeMounts() != null) {
            for (VolumeMount vm : c.getVolumeMounts()) {
                Path host = volumePaths.get(vm.getName());
                if (host == null) {
                    throw new ConfigException("cannot find volume \"" + vm.getName() + "\" to mount into container \""
                            + c.getName() + "\"");
                }
                String subPath = vm.getSubPath();
                if ((subPath == null || subPath.isEmpty()) && vm.getSubPathExpr() != null) {
                    subPath = Expansion.expand(vm.getSubPathExpr(), env);
                }
                if (subPath != null && !subPath.isEmpty()) {
                    if (subPath.startsWith("/") || Path.of(subPath).normalize().startsWith("..")) {
                        throw new ConfigException("subPath \"" + subPath + "\" of volume \"" + vm.getName()
                                + "\" must be a relative path inside the volume");
                    }
                    host = host.resolve(subPath);
                    try {
                        if (!java.nio.file.Files.exists(host)) {
                            java.nio.file.Files.createDirectories(host);
                        }
                    } catch (java.io.IOException e) {
                        throw new ConfigException("failed to create subPath directory for volumeMount \"" + vm.getName()
                                + "\" of container \"" + c.getName() + "\": " + e.getMessage());
                    }
                }
                if ("/etc/hosts".equals(vm.getMountPath())) {
                    mountsEtcHosts = true;
                }
                String propagation = switch (vm.getMountPropagation() == null ? "None" : vm.getMountPropagation()) {
                    case "HostToContainer" -> "rslave";
                    case "Bidirectional" -> "rshared";
                    default -> "private";
                };
                // configMap, secret, downwardAPI and projected volumes are always mounted read-only (upstream's
                // mustMountRO from the plugin's attributes): the kubelet owns their files.
                boolean mustMountRO = pod.getSpec().getVolumes() != null && pod.getSpec().getVolumes().stream()
                        .anyMatch(v -> v.getName().equals(vm.getName()) && ApiVolumes.handles(v));
                mounts.add(new Mount(vm.getMountPath(), host.toString(), Boolean.TRUE.equals(vm.getReadOnly()) || mustMountRO,
                        propagation));
            }
        }
        if (etcHosts != null && !mountsEtcHosts) {
            mounts.add(new Mount("/etc/hosts", etcHosts.toString(), false));
        }
        if (terminationMessageFile != null) {
            mounts.add(new Mount(tmPath, terminationMessageFile.toString(), false));
        }
        return mounts;
    }

    /**
     * Env in kubelet's order (upstream {@code makeEnvironmentVariables}): {@code envFrom}, then {@code env}, each value
     * expanded against the variables before it and the service variables; then the service variables the container
     * does not set itself.
     */
    List<KeyValue> envs(Pod pod, Container c, String podIp) throws ConfigException {
        Boolean links = pod.getSpec().getEnableServiceLinks();
        Map<String, String> serviceEnv = ServiceEnv.forPod(services, pod.getMetadata().getNamespace(), links == null || links);
        Map<String, String> tmp = new LinkedHashMap<>();
        envRefs.envFrom(pod, c, tmp);
        // What $(VAR) sees: the container's variables so far, over the service variables.
        Map<String, String> visible = new HashMap<>(serviceEnv);
        visible.putAll(tmp);
        if (c.getEnv() != null) {
            for (EnvVar e : c.getEnv()) {
                String value;
                if (e.getValueFrom() == null) {
                    value = Expansion.expand(e.getValue() == null ? "" : e.getValue(), visible);
                } else {
                    value = valueFrom(pod, c, e, podIp);
                }
                if (value != null) {
                    tmp.put(e.getName(), value);
                    visible.put(e.getName(), value);
                }
            }
        }
        List<KeyValue> out = new ArrayList<>();
        tmp.forEach((k, v) -> out.add(new KeyValue(k, v)));
        serviceEnv.forEach((k, v) -> {
            if (!tmp.containsKey(k)) {
                out.add(new KeyValue(k, v));
            }
        });
        return out;
    }

    /** The value of a {@code valueFrom} reference, or null when an optional reference is missing (the variable is not set). */
    private String valueFrom(Pod pod, Container c, EnvVar e, String podIp) throws ConfigException {
        EnvVarSource src = e.getValueFrom();
        if (src.getFieldRef() != null) {
            return fieldRef(pod, src.getFieldRef(), podIp, e.getName());
        }
        if (src.getResourceFieldRef() != null) {
            return resourceFieldRef(c, src.getResourceFieldRef());
        }
        if (src.getConfigMapKeyRef() != null) {
            return envRefs.configMapKey(pod, src.getConfigMapKeyRef());
        }
        if (src.getSecretKeyRef() != null) {
            return envRefs.secretKey(pod, src.getSecretKeyRef());
        }
        return "";
    }

    private String fieldRef(Pod pod, ObjectFieldSelector sel, String podIp, String envName) throws ConfigException {
        String path = sel.getFieldPath();
        var meta = pod.getMetadata();
        var m = java.util.regex.Pattern.compile("metadata\\.(labels|annotations)\\['(.+)'\\]").matcher(path);
        if (m.matches()) {
            Map<String, String> map = "labels".equals(m.group(1)) ? meta.getLabels() : meta.getAnnotations();
            return map == null ? "" : map.getOrDefault(m.group(2), "");
        }
        return switch (path) {
            case "metadata.name" -> meta.getName();
            case "metadata.namespace" -> meta.getNamespace();
            case "metadata.uid" -> meta.getUid();
            case "metadata.labels" -> formatMap(meta.getLabels());
            case "metadata.annotations" -> formatMap(meta.getAnnotations());
            case "spec.nodeName" -> pod.getSpec().getNodeName() == null ? node.nodeName() : pod.getSpec().getNodeName();
            case "spec.serviceAccountName" -> pod.getSpec().getServiceAccountName() == null ? "" : pod.getSpec().getServiceAccountName();
            case "spec.terminationGracePeriodSeconds" -> {
                Long g = pod.getSpec().getTerminationGracePeriodSeconds();
                yield Long.toString(g == null ? 30 : g);
            }
            case "status.hostIP" -> node.hostIps().isEmpty() ? "" : node.hostIps().get(0);
            case "status.hostIPs" -> String.join(",", node.hostIps());
            case "status.podIP" -> PodSpecs.hostNetwork(pod) ? (node.hostIps().isEmpty() ? "" : node.hostIps().get(0))
                    : podIp == null ? "" : podIp;
            case "status.podIPs" -> PodSpecs.hostNetwork(pod) ? String.join(",", node.hostIps()) : podIp == null ? "" : podIp;
            default -> throw new ConfigException("env " + envName + ": unsupported fieldPath \"" + path + "\"");
        };
    }

    private static String formatMap(Map<String, String> m) {
        if (m == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        m.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> sb.append(e.getKey()).append("=\"").append(e.getValue()).append("\"\n"));
        return sb.toString().stripTrailing();
    }

    private String resourceFieldRef(Container c, ResourceFieldSelector sel) throws ConfigException {
        try {
            return io.jkubelet.core.volume.DownwardApi.containerResourceValue(c, sel, allocatable.get());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private LinuxContainerResources resources(Pod pod, Container c) {
        long cpuRequest = Resources.milliCpu(Resources.request(c, "cpu"));
        long cpuLimit = Resources.milliCpu(Resources.limit(c, "cpu"));
        long memLimit = Resources.bytes(Resources.limit(c, "memory"));
        long shares = Resources.milliCpuToShares(cpuRequest == 0 && cpuLimit > 0 ? cpuLimit : cpuRequest);
        long quota = cpuLimit == 0 ? 0 : Resources.milliCpuToQuota(cpuLimit, Resources.QUOTA_PERIOD_US);
        int oom = node.oomScoreClamp().applyAsInt(oomPolicy.containerOomScoreAdjust(pod, c));
        return new LinuxContainerResources(quota == 0 ? 0 : Resources.QUOTA_PERIOD_US, quota, shares, memLimit, oom);
    }

    private static LinuxContainerSecurityContext securityContext(Pod pod, Container c) {
        PodSecurityContext psc = pod.getSpec().getSecurityContext();
        SecurityContext sc = c.getSecurityContext();
        Long runAsUser = sc != null && sc.getRunAsUser() != null ? sc.getRunAsUser()
                : psc != null ? psc.getRunAsUser() : null;
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
                namespaceOptions(pod), noNewPrivs);
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

    private static List<Container> allContainers(Pod pod) {
        List<Container> all = new ArrayList<>(PodSpecs.initContainers(pod));
        all.addAll(PodSpecs.containers(pod));
        return all;
    }
}
