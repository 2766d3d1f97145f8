package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.apis.config.KubeletConfiguration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What the configuration asks that jkubelet does not do, said at start-up (no setting is silently ignored). A setting
 * that would change how pods run or how the node is protected, where upstream would do it, is refused before anything
 * starts; a setting upstream itself can run without (it would log an error and carry on) gives one warning naming it
 * and saying what is not done. {@code docs/operations.md}'s table of every field says which is which, and
 * {@code ConfigFieldCoverageTest} holds every field of the configuration to it. Pure, apart from what {@link Host}
 * reads.
 */
final class UnsupportedSettings {

    /** Upstream's {@code makeIPTablesUtilChains} chains. */
    static final String IPTABLES_CHAINS = "KUBE-IPTABLES-HINT and KUBE-FIREWALL";

    private UnsupportedSettings() {}

    /** What a warning may depend on beyond the configuration: the agent's own process. */
    record Host(long openFileLimit) {
        /** This process's soft limit of open files ({@code /proc/self/limits}); the JVM raised it to its hard limit. */
        static Host current() {
            try (Stream<String> lines = Files.lines(Path.of("/proc/self/limits"))) {
                return new Host(lines.filter(l -> l.startsWith("Max open files")).findFirst()
                        .map(l -> l.substring("Max open files".length()).trim().split("\\s+")[0])
                        .map(v -> v.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(v)).orElse(Long.MAX_VALUE));
            } catch (IOException | NumberFormatException e) {
                return new Host(Long.MAX_VALUE);
            }
        }
    }

    /** The settings the agent refuses to start with, each naming its field (and flag) and what to set instead. */
    static List<String> refusals(KubeletConfiguration c) {
        List<String> errors = new ArrayList<>();
        if (!"none".equals(c.cpuManagerPolicy()) && !"static".equals(c.cpuManagerPolicy())) {
            errors.add("cpuManagerPolicy (--cpu-manager-policy) \"" + c.cpuManagerPolicy() + "\": unknown policy: \""
                    + c.cpuManagerPolicy() + "\"");
        }
        if ("none".equals(c.cpuManagerPolicy()) && !empty(c.cpuManagerPolicyOptions())) {
            errors.add("cpuManagerPolicyOptions (--cpu-manager-policy-options) " + c.cpuManagerPolicyOptions()
                    + ": None policy: cannot set policy options");
        }
        if (!"None".equals(c.memoryManagerPolicy()) && !"Static".equals(c.memoryManagerPolicy())) {
            errors.add("memoryManagerPolicy (--memory-manager-policy) \"" + c.memoryManagerPolicy()
                    + "\": unknown policy: \"" + c.memoryManagerPolicy() + "\"");
        }
        if ("LimitedSwap".equals(c.memorySwap().swapBehavior())) {
            errors.add("memorySwap.swapBehavior \"LimitedSwap\": jkubelet does not give pods swap; only \"\" or "
                    + "\"NoSwap\" is accepted");
        }
        String images = c.imageServiceEndpoint();
        // A CRI runtime may have its images served apart (RuntimeConnection); Docker serves its own.
        if (!images.isEmpty() && !images.equals(c.containerRuntimeEndpoint()) && RuntimeEndpoint.isDocker(c.containerRuntimeEndpoint())) {
            errors.add("imageServiceEndpoint (--image-service-endpoint) \"" + images + "\": jkubelet pulls images "
                    + "through the container runtime at containerRuntimeEndpoint \"" + c.containerRuntimeEndpoint()
                    + "\"; leave it unset or give the same endpoint");
        }
        return errors;
    }

    /**
     * One warning for each setting upstream could run without that jkubelet does not act on.
     *
     * @param standalone no apiserver (no {@code --kubeconfig}): the apiserver client's settings do not matter
     */
    static List<String> warnings(KubeletConfiguration c, boolean standalone, Host host) {
        List<String> warnings = new ArrayList<>();
        if (!empty(c.tlsCurvePreferences())) {
            warnings.add("tlsCurvePreferences " + c.tlsCurvePreferences() + ": not applied; the secure port offers "
                    + "the JVM's key exchange groups");
        }
        if (c.enableContentionProfiling()) {
            warnings.add("enableContentionProfiling (--contention-profiling) true: the JVM keeps no block profile; "
                    + "jkubelet records no lock contention");
        }
        if (!c.kubeletCgroups().isEmpty()) {
            warnings.add("kubeletCgroups (--kubelet-cgroups) \"" + c.kubeletCgroups() + "\": jkubelet does not move "
                    + "itself into that cgroup; start it there (systemd: Slice=)");
        }
        if (!c.systemCgroups().isEmpty()) {
            warnings.add("systemCgroups (--system-cgroups) \"" + c.systemCgroups() + "\": jkubelet does not move the "
                    + "host's other processes into that cgroup");
        }
        if (!FeatureGates.of(c).enabled(FeatureGates.MEMORY_MANAGER)
                && (!"None".equals(c.memoryManagerPolicy()) || !empty(c.reservedMemory()))) {
            warnings.add("memoryManagerPolicy (--memory-manager-policy) \"" + c.memoryManagerPolicy() + "\" and "
                    + "reservedMemory (--reserved-memory) " + Objects.requireNonNullElse(c.reservedMemory(), List.of())
                    + ": not used; the MemoryManager feature gate is off, so no memory manager runs (as upstream)");
        }
        if (!empty(c.qosReserved())) {
            warnings.add("qosReserved (--qos-reserved) " + c.qosReserved() + ": not applied; it needs the QOSReserved "
                    + "feature gate, which jkubelet keeps off (upstream ignores the field with the gate off too)");
        }
        if (!c.podCIDR().isEmpty()) {
            warnings.add("podCIDR (--pod-cidr) \"" + c.podCIDR() + "\": not passed to the runtime (Docker takes no "
                    + "runtime configuration update); pods get the addresses of Docker's network");
        }
        if (c.maxOpenFiles() > host.openFileLimit()) {
            warnings.add("maxOpenFiles (--max-open-files) " + c.maxOpenFiles() + ": jkubelet cannot raise its own "
                    + "open-file limit, which is " + host.openFileLimit() + "; raise it where the agent is started "
                    + "(systemd: LimitNOFILE=" + c.maxOpenFiles() + ")");
        }
        if (!standalone && !"application/json".equals(c.contentType())) {
            warnings.add("contentType (--kube-api-content-type) \"" + c.contentType() + "\": jkubelet's "
                    + "apiserver client "
                    + "speaks JSON only; its requests are sent as application/json");
        }
        if (!Boolean.FALSE.equals(c.makeIPTablesUtilChains())) {
            warnings.add("makeIPTablesUtilChains (--make-iptables-util-chains) true: jkubelet does not create the "
                    + IPTABLES_CHAINS + " iptables chains (the latter drops packets to 127.0.0.0/8 from other "
                    + "addresses); set it to false once the host's firewall or kube-proxy does");
        }
        if (c.kernelMemcgNotification()) {
            warnings.add("kernelMemcgNotification (--kernel-memcg-notification) true: jkubelet does not use memory "
                    + "cgroup notifications; memory thresholds are checked after each stats round (every 10s)");
        }
        if (!c.showHiddenMetricsForVersion().isEmpty()) {
            warnings.add("showHiddenMetricsForVersion (--show-hidden-metrics-for-version) \""
                    + c.showHiddenMetricsForVersion() + "\": jkubelet has no hidden metrics to show");
        }
        if ("none".equals(c.topologyManagerPolicy()) && !empty(c.topologyManagerPolicyOptions())) {
            // Upstream's NewManager returns before reading the options under the none policy.
            warnings.add("topologyManagerPolicyOptions (--topology-manager-policy-options) "
                    + c.topologyManagerPolicyOptions() + ": not acted on with topologyManagerPolicy \"none\" (upstream "
                    + "does not read them either); set a policy that aligns, or leave them unset");
        }
        volumePluginDrivers(c.volumePluginDir()).ifPresent(warnings::add);
        if (c.tracing() != null) {
            warnings.add("tracing (endpoint \"" + Objects.toString(c.tracing().endpoint(), "") + "\", "
                    + "samplingRatePerMillion " + c.tracing().samplingRatePerMillion() + "): jkubelet exports no "
                    + "OpenTelemetry traces");
        }
        // Docker's json-file driver rotates its own logs; on a CRI runtime the kubelet rotates them with these settings.
        DockerLogRotation.Notice logRotation = DockerLogRotation.unusedSettings(c);
        if (RuntimeEndpoint.isDocker(c.containerRuntimeEndpoint()) && logRotation.warning()) {
            warnings.add(logRotation.text());
        }
        newerFields(c).forEach(field -> warnings.add(field + ": not a field of a v1.30 kubelet's configuration; "
                + "not acted on (a v1.30 kubelet decodes the file leniently and ignores it)"));
        return warnings;
    }

    /** FlexVolume drivers in {@code volumePluginDir}: upstream probes them; jkubelet has no FlexVolume support. */
    private static Optional<String> volumePluginDrivers(String dir) {
        if (dir.isEmpty() || !Files.isDirectory(Path.of(dir))) {
            return Optional.empty();
        }
        try (Stream<Path> entries = Files.list(Path.of(dir))) {
            List<String> drivers = entries.map(p -> p.getFileName().toString()).sorted().toList();
            return drivers.isEmpty() ? Optional.empty()
                    : Optional.of("volumePluginDir (--volume-plugin-dir) \"" + dir + "\" holds " + drivers
                            + ": jkubelet does not load FlexVolume drivers; pods with flexVolume volumes cannot start");
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The fields set that came into v1beta1 after v1.30 and that no gate or rule already refuses. */
    private static List<String> newerFields(KubeletConfiguration c) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("singleProcessOOMKill", c.singleProcessOOMKill());
        fields.put("draManagerReconcilePeriod", c.draManagerReconcilePeriod());
        fields.put("mergeDefaultEvictionSettings", c.mergeDefaultEvictionSettings());
        fields.put("memoryReservationPolicy", c.memoryReservationPolicy().isEmpty() ? null : c.memoryReservationPolicy());
        fields.put("failCgroupV1", c.failCgroupV1());
        fields.put("userNamespaces.idsPerPod", c.userNamespaces());
        fields.put("podHousekeepingPeriod", c.podHousekeepingPeriod());
        return fields.entrySet().stream().filter(e -> e.getValue() != null).map(Map.Entry::getKey).toList();
    }

    private static boolean empty(Map<?, ?> map) {
        return map == null || map.isEmpty();
    }

    private static boolean empty(List<?> list) {
        return list == null || list.isEmpty();
    }
}
