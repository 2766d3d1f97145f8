package io.jkubelet.core.volumemanager.populator;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.objects.PersistentVolumeClient;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.EphemeralVolumes;
import io.jkubelet.core.volume.util.ResizeUtil;
import io.jkubelet.core.volume.util.operationexecutor.VolumeToMount;
import io.jkubelet.core.volumemanager.cache.ActualStateOfWorld;
import io.jkubelet.core.volumemanager.cache.DesiredStateOfWorld;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * Upstream {@code DesiredStateOfWorldPopulator}: each pass adds the volumes of the pods the pod manager holds (those
 * their containers use; a claim turned into its bound PersistentVolume, with the capacity a mounted one is to grow to)
 * to the desired state of the world, and removes those of pods whose containers are stopped. A pod is processed once,
 * then again when its sync asks ({@link #reprocessPod}); what goes wrong processing it is kept for its sync to report. Once every pod source has
 * delivered its pods and a pass has run, {@link #hasAddedPods()} is true: only then may the reconciler unmount what no
 * pod wants. Passes run on the volume manager's populator thread, one at a time.
 */
public final class DesiredStateOfWorldPopulator {
    private static final Logger log = LoggerFactory.getLogger(DesiredStateOfWorldPopulator.class);

    private final PodManager podManager;
    private final PodStateProvider podStates;
    private final DesiredStateOfWorld dsw;
    private final ActualStateOfWorld asw;
    private final ClaimedVolumes claims;
    /** Upstream's {@code processedPods}: true once processed, false when a sync asked for it again. */
    private final Map<String, Boolean> processedPods = new ConcurrentHashMap<>();
    private volatile boolean hasAddedPods;

    public DesiredStateOfWorldPopulator(PodManager podManager, PodStateProvider podStates, DesiredStateOfWorld dsw,
                                        ActualStateOfWorld asw, PersistentVolumeClient persistentVolumes) {
        this.podManager = podManager;
        this.podStates = podStates;
        this.dsw = dsw;
        this.asw = asw;
        this.claims = new ClaimedVolumes(persistentVolumes);
    }

    /**
     * One pass (upstream {@code populatorLoop}).
     *
     * @param sourcesReady whether every pod source had delivered its pods before this pass began
     */
    public void populate(BooleanSupplier sourcesReady) {
        boolean ready = sourcesReady.getAsBoolean();
        findAndAddNewPods();
        findAndRemoveDeletedPods();
        if (ready && !hasAddedPods) {
            log.info("Finished populating initial desired state of world");
            hasAddedPods = true;
        }
    }

    /** Upstream {@code HasAddedPods}: the desired state holds every pod the sources had at start. */
    public boolean hasAddedPods() {
        return hasAddedPods;
    }

    /**
     * Upstream {@code ReprocessPod}: the pod's volumes are processed again at the next pass (and remounted); from then on
     * the pod counts as seen, so that one whose volumes cannot be processed is not processed at every pass.
     */
    public void reprocessPod(String podName) {
        processedPods.put(podName, false);
    }

    private void findAndAddNewPods() {
        for (Pod pod : podManager.pods()) {
            String uid = pod.getMetadata().getUid();
            if (hasAddedPods && podStates.shouldPodContainersBeTerminating(uid)) {
                continue; // a pod that cannot start containers again gets no volumes again
            }
            if (!hasAddedPods && podStates.shouldPodRuntimeBeRemoved(uid)) {
                continue; // at start, a pod whose containers may still run keeps its volumes
            }
            processPodVolumes(pod);
        }
    }

    /** Upstream {@code processPodVolumes}. */
    void processPodVolumes(Pod pod) {
        String podName = pod.getMetadata().getUid();
        if (Boolean.TRUE.equals(processedPods.get(podName))) {
            return;
        }
        boolean allVolumesAdded = true;
        PodVolumeNames used = PodVolumeNames.of(pod);
        Map<String, String> mountedVolumes = mountedVolumeNames(podName);
        for (Volume v : pod.getSpec() == null || pod.getSpec().getVolumes() == null ? java.util.List.<Volume>of()
                : pod.getSpec().getVolumes()) {
            if (!used.mounts().contains(v.getName()) && !used.devices().contains(v.getName())) {
                log.trace("Skipping unused volume {} of pod {}", v.getName(), PodSpecs.format(pod));
                continue;
            }
            try {
                Created c = createVolumeSpec(v, pod, used);
                dsw.addPodToVolume(podName, pod, c.spec(), v.getName(), c.volumeGidValue());
                log.trace("Added volume {} (volSpec={}) for pod {} to desired state", v.getName(), c.spec().name(), podName);
                checkVolumeFsResize(pod, v.getName(), c, mountedVolumes.get(v.getName()));
            } catch (VolumeException e) {
                log.error("Error processing volume {} for pod {}: {}", v.getName(), PodSpecs.format(pod), e.getMessage());
                dsw.addErrorToPod(podName, e.getMessage());
                allVolumesAdded = false;
            }
        }
        if (allVolumesAdded) {
            processedPods.put(podName, true);
            // The pod was synced anew: volumes whose content follows objects are written again.
            asw.markRemountRequired(podName);
            dsw.popPodErrors(podName);
        } else if (processedPods.containsKey(podName)) {
            // Processed at least once: not again at every pass, only when its sync asks.
            processedPods.put(podName, true);
        }
    }

    /** @param claim the claim the volume is bound to; null for a pod's own volume */
    private record Created(VolumeSpec spec, String volumeGidValue, PersistentVolumeClaim claim) {}

    /** The unique names of the pod's mounted volumes by its name for each (upstream's {@code mountedVolumesForPod}). */
    private Map<String, String> mountedVolumeNames(String podName) {
        Map<String, String> names = new HashMap<>();
        asw.getMountedVolumesForPod(podName).forEach(m -> names.put(m.outerVolumeSpecName(), m.volumeName()));
        return names;
    }

    /**
     * Upstream {@code checkVolumeFSResize}: for a claim's volume mounted for the pod, its PersistentVolume's capacity is
     * what the volume is to have, and the claim's {@code status.capacity} what it has unless known already, so that the
     * reconciler expands it in use once the PersistentVolume grew. A volume not mounted yet is expanded as it is mounted
     * instead; one the pod mounts read-only is never expanded.
     *
     * @param volumeName the volume's unique name in the actual state; null when it is not mounted for the pod
     */
    private void checkVolumeFsResize(Pod pod, String podVolume, Created c, String volumeName) {
        if (c.spec().persistentVolume() == null || c.claim() == null || volumeName == null) {
            return;
        }
        if (c.spec().readOnly()) {
            log.trace("Skip file system resize check for the volume, as the volume is mounted as readonly: pod={} "
                    + "volumeName={}", PodSpecs.format(pod), podVolume);
            return;
        }
        Quantity pvCap = ResizeUtil.storage(c.spec().persistentVolume().getSpec().getCapacity());
        var claimStatus = c.claim().getStatus();
        Quantity pvcStatusCap = ResizeUtil.storage(claimStatus == null ? null : claimStatus.getCapacity());
        dsw.updatePersistentVolumeSize(volumeName, pvCap);
        log.trace("NodeExpandVolume updating size: actualSize={} desiredSize={} volumeName={}", pvcStatusCap, pvCap,
                volumeName);
        asw.initializeClaimSize(volumeName, pvcStatusCap);
    }

    /**
     * Upstream {@code createVolumeSpec}: a claim, or a generic ephemeral volume's claim, is turned into its
     * PersistentVolume; other volumes are their own.
     */
    private Created createVolumeSpec(Volume v, Pod pod, PodVolumeNames used) throws VolumeException {
        var source = EphemeralVolumes.claimSource(pod, v);
        if (source == null) {
            // A copy: the pod's object may change under the operations.
            return new Created(VolumeSpec.of(new VolumeBuilder(v).build()), "", null);
        }
        boolean ephemeral = v.getPersistentVolumeClaim() == null;
        ClaimedVolumes.Claimed c = claims.claimed(pod.getMetadata().getNamespace(), source.getClaimName(),
                Boolean.TRUE.equals(source.getReadOnly()), ephemeral ? pod : null);
        String mode = c.spec().isBlock() ? "Block" : "Filesystem";
        if (used.mounts().contains(v.getName()) && c.spec().isBlock()) {
            throw new VolumeException("volume " + v.getName() + " has volumeMode " + mode + ", but is specified in volumeMounts");
        }
        if (used.devices().contains(v.getName()) && !c.spec().isBlock()) {
            throw new VolumeException("volume " + v.getName() + " has volumeMode " + mode + ", but is specified in volumeDevices");
        }
        return new Created(c.spec(), c.volumeGidValue(), c.claim());
    }

    /** Upstream {@code findAndRemoveDeletedPods}: a pod's volumes leave the desired state once its containers stopped. */
    private void findAndRemoveDeletedPods() {
        Set<String> podsInDsw = new HashSet<>();
        for (VolumeToMount v : dsw.getVolumesToMount()) {
            String uid = v.podName();
            podsInDsw.add(uid);
            boolean podExists = podManager.get(uid).isPresent();
            if (!podStates.shouldPodRuntimeBeRemoved(uid)) {
                continue; // it may still run containers
            }
            if (podExists && asw.podRemovedFromVolume(uid, v.volumeName())) {
                // Upstream: the actual state has no mount of it yet while the pod manager still has the pod.
                log.trace("Actual state does not yet have volume {} mounted for pod {}; kept in desired state",
                        v.volumeName(), uid);
                continue;
            }
            log.debug("Removing volume {} of pod {} from desired state", v.volumeName(), uid);
            dsw.deletePodFromVolume(uid, v.volumeName());
            processedPods.remove(uid);
        }
        // Forget what was processed of pods that are gone.
        processedPods.keySet().removeIf(uid -> !podsInDsw.contains(uid) && podManager.get(uid).isEmpty());
        for (String uid : dsw.getPodsWithErrors()) {
            if (podManager.get(uid).isEmpty()) {
                dsw.popPodErrors(uid);
            }
        }
    }
}
