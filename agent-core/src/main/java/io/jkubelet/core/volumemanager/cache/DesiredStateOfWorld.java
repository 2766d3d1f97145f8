package io.jkubelet.core.volumemanager.cache;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumePluginMgr;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.operationexecutor.VolumeToMount;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The volumes the node's pods want mounted, and by which pods (upstream {@code cache.DesiredStateOfWorld}), as the
 * populator finds them in the pod manager, and what went wrong finding them (a claim not bound, a plugin missing), for
 * the pod's sync to report. Thread-safe.
 */
public final class DesiredStateOfWorld {
    /** Upstream's {@code maxPodErrors}: errors kept per pod until its sync takes them. */
    static final int MAX_POD_ERRORS = 10;

    private record PodToMount(Pod pod, VolumeSpec spec, String outerVolumeSpecName) {}

    private static final class VolumeEntry {
        final VolumePlugin plugin;
        final boolean attachable;
        final boolean deviceMountable;
        final String volumeGidValue;
        boolean reportedInUse;
        /** Upstream's {@code persistentVolumeSize}: the PersistentVolume's capacity, for an in-use expansion. */
        Quantity persistentVolumeSize;
        final Map<String, PodToMount> pods = new LinkedHashMap<>();

        VolumeEntry(VolumePlugin plugin, boolean attachable, boolean deviceMountable, String volumeGidValue) {
            this.plugin = plugin;
            this.attachable = attachable;
            this.deviceMountable = deviceMountable;
            this.volumeGidValue = volumeGidValue;
        }
    }

    private final VolumePluginMgr plugins;
    private final Map<String, VolumeEntry> volumesToMount = new LinkedHashMap<>();
    private final Map<String, TreeSet<String>> podErrors = new HashMap<>();

    public DesiredStateOfWorld(VolumePluginMgr plugins) {
        this.plugins = plugins;
    }

    /**
     * Upstream {@code GetUniqueVolumeNameFromSpec(WithPod)}: a volume pods can share is named for itself, any other for
     * its pod ({@code <plugin>/<podUID>-<spec name>}).
     */
    public static String uniqueVolumeName(VolumePlugin plugin, String podName, VolumeSpec spec) {
        return plugin.name() + "/" + plugin.sharedVolumeName(spec).orElse(podName + "-" + spec.name());
    }

    /**
     * Upstream {@code AddPodToVolume}: the pod wants the volume; a pod already listed is refreshed with its latest
     * object (a remount writes what the pod says now).
     *
     * @return the volume's unique name
     * @throws VolumeException {@code failed to get Plugin from volumeSpec for volume "x" err=...}
     */
    public synchronized String addPodToVolume(String podName, Pod pod, VolumeSpec spec, String outerVolumeSpecName,
                                              String volumeGidValue) throws VolumeException {
        VolumePlugin plugin;
        try {
            plugin = plugins.findPluginBySpec(spec);
        } catch (VolumeException e) {
            throw new VolumeException("failed to get Plugin from volumeSpec for volume \"" + spec.name() + "\" err="
                    + e.getMessage());
        }
        String volumeName = uniqueVolumeName(plugin, podName, spec);
        VolumeEntry entry = volumesToMount.computeIfAbsent(volumeName, n -> new VolumeEntry(plugin,
                plugin.attacher(spec).isPresent(), plugin.deviceMounter().isPresent(), volumeGidValue));
        entry.pods.put(podName, new PodToMount(pod, spec, outerVolumeSpecName));
        return volumeName;
    }

    /** Upstream {@code DeletePodFromVolume}: the volume leaves with its last pod. */
    public synchronized void deletePodFromVolume(String podName, String volumeName) {
        VolumeEntry entry = volumesToMount.get(volumeName);
        if (entry == null) {
            return;
        }
        entry.pods.remove(podName);
        if (entry.pods.isEmpty()) {
            volumesToMount.remove(volumeName);
        }
    }

    public synchronized boolean volumeExists(String volumeName) {
        return volumesToMount.containsKey(volumeName);
    }

    public synchronized boolean podExistsInVolume(String podName, String volumeName) {
        VolumeEntry entry = volumesToMount.get(volumeName);
        return entry != null && entry.pods.containsKey(podName);
    }

    /** Whether the pod wants a volume whose spec has this name (upstream {@code VolumeExistsWithSpecName}). */
    public synchronized boolean volumeExistsWithSpecName(String podName, String specName) {
        for (VolumeEntry entry : volumesToMount.values()) {
            PodToMount p = entry.pods.get(podName);
            if (p != null && p.spec().name().equals(specName)) {
                return true;
            }
        }
        return false;
    }

    /** Every pod's wanted volume, one entry per pod and volume (upstream {@code GetVolumesToMount}). */
    public synchronized List<VolumeToMount> getVolumesToMount() {
        List<VolumeToMount> all = new ArrayList<>();
        volumesToMount.forEach((name, entry) -> entry.pods.forEach((podName, p) -> all.add(new VolumeToMount(name,
                podName, p.pod(), p.spec(), p.outerVolumeSpecName(), entry.plugin, entry.attachable,
                entry.deviceMountable, entry.volumeGidValue, entry.reportedInUse, entry.persistentVolumeSize, ""))));
        return all;
    }

    /** The pod's volumes: its name for each (outer) to the volume's unique name (upstream {@code GetVolumeNamesForPod}). */
    public synchronized Map<String, String> getVolumeNamesForPod(String podName) {
        Map<String, String> names = new HashMap<>();
        volumesToMount.forEach((name, entry) -> {
            PodToMount p = entry.pods.get(podName);
            if (p != null) {
                names.put(p.outerVolumeSpecName(), name);
            }
        });
        return names;
    }

    /** The pods that want any volume. */
    public synchronized Set<String> getPods() {
        Set<String> pods = new HashSet<>();
        volumesToMount.values().forEach(entry -> pods.addAll(entry.pods.keySet()));
        return pods;
    }

    /**
     * Upstream {@code UpdatePersistentVolumeSize}: the capacity of the volume's PersistentVolume, which an in-use
     * expansion grows the mounted volume to when it is more than the claim had.
     */
    public synchronized void updatePersistentVolumeSize(String volumeName, Quantity size) {
        VolumeEntry entry = volumesToMount.get(volumeName);
        if (entry != null) {
            entry.persistentVolumeSize = size;
        }
    }

    /** Upstream {@code MarkVolumesReportedInUse}: the node status listed these volumes. */
    public synchronized void markVolumesReportedInUse(Collection<String> reportedVolumes) {
        Set<String> reported = new HashSet<>(reportedVolumes);
        volumesToMount.forEach((name, entry) -> entry.reportedInUse = reported.contains(name));
    }

    /** Keeps an error for the pod's sync to report; at most {@link #MAX_POD_ERRORS} distinct ones. */
    public synchronized void addErrorToPod(String podName, String error) {
        TreeSet<String> errors = podErrors.computeIfAbsent(podName, p -> new TreeSet<>());
        if (errors.size() <= MAX_POD_ERRORS) {
            errors.add(error);
        }
    }

    /** Takes the pod's errors, sorted (upstream {@code PopPodErrors}). */
    public synchronized List<String> popPodErrors(String podName) {
        TreeSet<String> errors = podErrors.remove(podName);
        return errors == null ? List.of() : List.copyOf(errors);
    }

    public synchronized Set<String> getPodsWithErrors() {
        return new HashSet<>(podErrors.keySet());
    }
}
