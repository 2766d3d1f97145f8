package io.jkubelet.core.volumemanager;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.nodestatus.NodeVolumes;
import io.jkubelet.core.objects.PersistentVolumeClient;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumePluginMgr;
import io.jkubelet.core.volume.csi.CsiVolumePlugin;
import io.jkubelet.core.volume.util.EphemeralVolumes;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.operationexecutor.MountedVolume;
import io.jkubelet.core.volume.util.operationexecutor.NestedPendingOperations;
import io.jkubelet.core.volume.util.operationexecutor.OperationExecutor;
import io.jkubelet.core.volume.util.subpath.Subpather;
import io.jkubelet.core.volume.util.operationexecutor.VolumeToMount;
import io.jkubelet.core.volume.util.volumepathhandler.BlockVolumePathHandler;
import io.jkubelet.core.volumemanager.cache.ActualStateOfWorld;
import io.jkubelet.core.volumemanager.cache.DesiredStateOfWorld;
import io.jkubelet.core.volumemanager.cache.StateChanges;
import io.jkubelet.core.volumemanager.populator.DesiredStateOfWorldPopulator;
import io.jkubelet.core.volumemanager.populator.PodManager;
import io.jkubelet.core.volumemanager.populator.PodStateProvider;
import io.jkubelet.core.volumemanager.populator.PodVolumeNames;
import io.jkubelet.core.volumemanager.reconciler.Reconciler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.function.BooleanSupplier;

/**
 * Upstream {@code volumemanager.VolumeManager}: loops in the background that work out which volumes the node's pods
 * need mounted and unmounted and make it so. The populator fills the desired state of the world from the pod manager,
 * the reconciler brings the actual state to it through the operation executor; a pod's sync waits for its volumes
 * ({@link #waitForAttachAndMount}) and its termination for their unmount ({@link #waitForUnmount}). Both loops run every
 * 100 ms as upstream's, and at once when something asks (a sync, a finished operation), so that a pod does not wait a
 * loop period for its volumes. Thread-safe.
 */
public final class VolumeManager implements NodeVolumes {
    private static final Logger log = LoggerFactory.getLogger(VolumeManager.class);

    /** Upstream's {@code reconcilerLoopSleepPeriod} and {@code desiredStateOfWorldPopulatorLoopSleepPeriod}. */
    static final Duration LOOP_SLEEP_PERIOD = Duration.ofMillis(100);
    /**
     * Upstream's {@code podAttachAndMountTimeout}: a sync gives up after it and is tried again after its back-off, which
     * frees the pod's worker for newer updates (a deletion); offset from 2 minutes so that it can be recognised.
     */
    public static final Duration POD_ATTACH_AND_MOUNT_TIMEOUT = Duration.ofMinutes(2).plusSeconds(3);
    /** Upstream's {@code podAttachAndMountRetryInterval}: the longest a wait goes without looking again. */
    static final Duration POD_ATTACH_AND_MOUNT_RETRY_INTERVAL = Duration.ofMillis(300);

    /** How a wait pauses until the states change or {@code max} passes; tests move a fake clock instead. */
    @FunctionalInterface
    public interface Pause {
        Pause REAL = StateChanges::await;

        void pause(StateChanges changes, long seenGeneration, Duration max) throws InterruptedException;
    }

    private final PodDirs dirs;
    private final HostMounts mounts;
    private final Clock clock;
    private final Pause pause;
    private final DesiredStateOfWorld dsw;
    private final ActualStateOfWorld asw;
    private final DesiredStateOfWorldPopulator populator;
    private final Reconciler reconciler;
    /** Wakes the populator: a sync asked for its pod to be processed again. */
    private final StateChanges populatorWork = new StateChanges();
    private volatile boolean stopped;
    private volatile ExecutorService loops;
    private final boolean controllerAttachDetachEnabled;

    /**
     * @param attachDetach who attaches the attachable volumes, and where the kubelet reads that they are
     * @param operations where mounts and unmounts run (a thread each, so that a hanging mount holds only its own)
     */
    public VolumeManager(VolumePluginMgr plugins, PodDirs dirs, HostMounts mounts, PodManager podManager,
                         PodStateProvider podStates, PersistentVolumeClient persistentVolumes, AttachDetach attachDetach,
                         EventRecorder recorder, Clock clock, Executor operations, Pause pause) {
        this.controllerAttachDetachEnabled = attachDetach.controllerAttachDetachEnabled();
        this.dirs = dirs;
        this.mounts = mounts;
        this.clock = clock;
        this.pause = pause;
        this.dsw = new DesiredStateOfWorld(plugins);
        this.asw = new ActualStateOfWorld();
        this.populator = new DesiredStateOfWorldPopulator(podManager, podStates, dsw, asw, persistentVolumes);
        OperationExecutor executor = new OperationExecutor(new NestedPendingOperations(operations, clock), recorder,
                persistentVolumes, dirs, new Subpather(mounts), new BlockVolumePathHandler(mounts), attachDetach.node());
        this.reconciler = new Reconciler(dsw, asw, executor, plugins, dirs, mounts, populator::hasAddedPods,
                attachDetach.controllerAttachDetachEnabled(), attachDetach.node());
    }

    /**
     * The node's volume manager: the in-tree plugins ({@link VolumePlugins}) and the CSI plugin over this machine's
     * mounts.
     *
     * @param pods the pod manager's pods and the pod workers' states
     * @param csi the CSI plugin, over the drivers the plugin watcher registers
     * @param executor the loops' and the operations' threads, shut down by {@link #stop()}
     */
    public static <P extends PodManager & PodStateProvider> VolumeManager onThisNode(PodDirs dirs, ApiVolumes apiVolumes,
            P pods, PersistentVolumeClient persistentVolumes, AttachDetach attachDetach, CsiVolumePlugin csi,
            EventRecorder recorder, Clock clock, ExecutorService executor) {
        LinuxMounts mounts = new LinuxMounts();
        return new VolumeManager(VolumePlugins.probe(dirs, mounts, apiVolumes, csi, recorder), dirs, mounts, pods, pods,
                persistentVolumes, attachDetach, recorder, clock, executor, Pause.REAL);
    }

    /**
     * Upstream {@code Run}: reconstructs what is mounted, then starts the populator and the reconciler on
     * {@code loops}, each on a thread of its own, until {@link #stop()}.
     *
     * @param sourcesReady whether every pod source has delivered its pods
     */
    public void start(ExecutorService loops, BooleanSupplier sourcesReady) {
        log.info("Starting Kubelet Volume Manager");
        if (!controllerAttachDetachEnabled) {
            log.warn("enableControllerAttachDetach is false: volumes that need attaching (CSI volumes whose CSIDriver "
                    + "requires attachment) are not attached by this kubelet and their pods fail to mount them; "
                    + "the others mount as usual");
        }
        this.loops = loops;
        reconciler.reconstructVolumes();
        loops.execute(() -> loop("populator", populatorWork, () -> populator.populate(sourcesReady)));
        loops.execute(() -> loop("reconciler", asw.changes(), reconciler::reconcile));
    }

    /** Stops the loops and interrupts the operations under way (a mount in progress stays as the next start finds it). */
    public void stop() {
        stopped = true;
        populatorWork.signal();
        asw.changes().signal();
        if (loops != null) {
            loops.shutdownNow();
        }
    }

    private void loop(String name, StateChanges wakeUp, Runnable pass) {
        while (!stopped && !Thread.currentThread().isInterrupted()) {
            long seen = wakeUp.generation();
            try {
                pass.run();
            } catch (RuntimeException e) {
                log.error("Volume manager {} pass failed: {}", name, e.toString(), e);
            }
            try {
                wakeUp.await(seen, LOOP_SLEEP_PERIOD);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        log.info("Shutting down Kubelet Volume Manager {}", name);
    }

    /** One populator pass then one reconciler pass, for tests that drive the manager without its loops. */
    void runPasses(BooleanSupplier sourcesReady) {
        populator.populate(sourcesReady);
        reconciler.reconcile();
    }

    /** Reconstructs what is mounted, for tests that drive the manager without its loops. */
    void reconstruct() {
        reconciler.reconstructVolumes();
    }

    /**
     * Upstream {@code WaitForAttachAndMount}: asks for the pod's volumes to be processed again (so that those whose
     * content follows objects are written again) and waits until every volume its containers use is mounted.
     *
     * @param cancelled whether the pod's termination was requested meanwhile: the wait then ends at once
     * @throws VolumeWaitException {@code unmounted volumes=[...], unattached volumes=[...], failed to process
     *     volumes=[...]: <why>}; interrupted when it timed out ({@code context deadline exceeded}) or was cancelled
     *     ({@code context canceled}), not when it ended on the pod's processing errors
     */
    public void waitForAttachAndMount(Pod pod, BooleanSupplier cancelled) throws VolumeWaitException, InterruptedException {
        Set<String> expected = PodVolumeNames.of(pod).all();
        if (expected.isEmpty()) {
            return;
        }
        String podName = pod.getMetadata().getUid();
        log.debug("Waiting for volumes to attach and mount for pod {}", PodSpecs.format(pod));
        reprocess(podName);
        Instant deadline = clock.instant().plus(POD_ATTACH_AND_MOUNT_TIMEOUT);
        String why;
        boolean interrupted = true;
        while (true) {
            long seen = asw.changes().generation();
            List<String> errors = dsw.popPodErrors(podName);
            if (!errors.isEmpty()) {
                why = String.join("; ", errors);
                interrupted = false;
                break;
            }
            if (unmountedVolumes(podName, expected).isEmpty()) {
                log.debug("All volumes are attached and mounted for pod {}", PodSpecs.format(pod));
                return;
            }
            if (cancelled.getAsBoolean()) {
                why = "context canceled";
                break;
            }
            Duration left = Duration.between(clock.instant(), deadline);
            if (left.isNegative() || left.isZero()) {
                why = "context deadline exceeded";
                break;
            }
            pause.pause(asw.changes(), seen, min(left, POD_ATTACH_AND_MOUNT_RETRY_INTERVAL));
        }
        List<String> unmounted = unmountedVolumes(podName, expected);
        if (unmounted.isEmpty()) {
            return;
        }
        throw new VolumeWaitException("unmounted volumes=" + goList(unmounted) + ", unattached volumes="
                + goList(unattachedVolumes(podName)) + ", failed to process volumes=" + goList(volumesNotInDsw(podName, expected))
                + ": " + why, interrupted);
    }

    /**
     * Upstream {@code WaitForUnmount}, then the kubelet's wait for the pod's volume paths: asks for the pod's volumes to
     * be processed again (its containers being stopped, they leave the desired state), waits until none is mounted for
     * it, then until nothing is mounted under its volume directories any more ({@link #podVolumesExist}).
     *
     * @throws VolumeWaitException {@code mounted volumes=[...]: context deadline exceeded}, or that the volumes are
     *     still mounted on disk, after {@link #POD_ATTACH_AND_MOUNT_TIMEOUT}: the caller tries again later
     */
    public void waitForUnmount(Pod pod) throws VolumeWaitException, InterruptedException {
        String podName = pod.getMetadata().getUid();
        log.debug("Waiting for volumes to unmount for pod {}", PodSpecs.format(pod));
        reprocess(podName);
        Instant deadline = clock.instant().plus(POD_ATTACH_AND_MOUNT_TIMEOUT);
        if (!await(() -> asw.getMountedVolumesForPod(podName).isEmpty(), deadline)) {
            List<String> mounted = new ArrayList<>();
            asw.getMountedVolumesForPod(podName).forEach(v -> mounted.add(v.outerVolumeSpecName()));
            if (!mounted.isEmpty()) {
                throw new VolumeWaitException("mounted volumes=" + goList(mounted.stream().sorted().toList())
                        + ": context deadline exceeded", true);
            }
        }
        log.debug("Pod termination unmounted volumes of pod {}", PodSpecs.format(pod));
        if (!await(() -> !podVolumesExist(podName), deadline)) {
            throw new VolumeWaitException("pod " + PodSpecs.format(pod)
                    + " is terminated, but some volumes have not been cleaned up", true);
        }
        log.debug("Pod termination cleaned up volume paths of pod {}", PodSpecs.format(pod));
    }

    /** Waits until {@code done}, looking again at each change and at least every 300 ms; false once past the deadline. */
    private boolean await(BooleanSupplier done, Instant deadline) throws InterruptedException {
        while (true) {
            long seen = asw.changes().generation();
            if (done.getAsBoolean()) {
                return true;
            }
            Duration left = Duration.between(clock.instant(), deadline);
            if (left.isNegative() || left.isZero()) {
                return false;
            }
            pause.pause(asw.changes(), seen, min(left, POD_ATTACH_AND_MOUNT_RETRY_INTERVAL));
        }
    }

    void reprocess(String podName) {
        populator.reprocessPod(podName);
        populatorWork.signal();
    }

    /** The expected volumes that are not mounted (or only perhaps mounted) for the pod, sorted. */
    private List<String> unmountedVolumes(String podName, Set<String> expected) {
        Set<String> mounted = new TreeSet<>();
        asw.getMountedVolumesForPod(podName).forEach(v -> mounted.add(v.outerVolumeSpecName()));
        return expected.stream().filter(n -> !mounted.contains(n)).sorted().toList();
    }

    /** Upstream {@code getUnattachedVolumes}: the pod's attachable volumes not on the node yet. */
    private List<String> unattachedVolumes(String podName) {
        return dsw.getVolumesToMount().stream()
                .filter(v -> v.podName().equals(podName) && v.pluginIsAttachable() && !asw.volumeExists(v.volumeName()))
                .map(VolumeToMount::outerVolumeSpecName).sorted().toList();
    }

    /** Upstream {@code getVolumesNotInDSW}: the expected volumes the populator could not add. */
    private List<String> volumesNotInDsw(String podName, Set<String> expected) {
        Set<String> inDsw = dsw.getVolumeNamesForPod(podName).keySet();
        return expected.stream().filter(n -> !inDsw.contains(n)).sorted().toList();
    }

    /** A list as Go's {@code %v} prints it: {@code [a b]}. */
    private static String goList(List<String> l) {
        return "[" + String.join(" ", l) + "]";
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }

    /**
     * Upstream {@code GetMountedVolumesForPod}: the pod's mounted volumes by its name for each (not the perhaps
     * mounted ones), for its containers' mounts and the stats.
     */
    public Map<String, VolumeInfo> getMountedVolumesForPod(Pod pod) {
        String podName = pod.getMetadata().getUid();
        Map<String, Volume> specs = new HashMap<>();
        if (pod.getSpec() != null && pod.getSpec().getVolumes() != null) {
            pod.getSpec().getVolumes().forEach(v -> specs.put(v.getName(), v));
        }
        Map<String, VolumeInfo> volumes = new LinkedHashMap<>();
        for (MountedVolume v : asw.getMountedVolumesForPod(podName)) {
            Volume spec = specs.get(v.outerVolumeSpecName());
            var claim = spec == null ? null : EphemeralVolumes.claimSource(pod, spec);
            volumes.put(v.outerVolumeSpecName(), v.blockVolumeMapper() != null
                    ? VolumeInfo.ofBlock(v.outerVolumeSpecName(), v.innerVolumeSpecName(), v.blockVolumeMapper(),
                            v.spec().readOnly(), claim)
                    : new VolumeInfo(v.outerVolumeSpecName(), v.innerVolumeSpecName(), v.mounter().path(),
                            v.mounter().readOnly(), v.mounter().metrics(), claim, spec != null && isLocalEphemeral(spec)));
        }
        return volumes;
    }

    /** Upstream {@code IsLocalEphemeralVolume}: an emptyDir on the node's disk, a configMap, a gitRepo. */
    private static boolean isLocalEphemeral(Volume v) {
        return v.getGitRepo() != null || v.getConfigMap() != null
                || (v.getEmptyDir() != null && (v.getEmptyDir().getMedium() == null || v.getEmptyDir().getMedium().isEmpty()));
    }

    /**
     * The kubelet's {@code podVolumesExist}: whether the pod has volumes the volume manager holds as mounted or perhaps
     * mounted, or a mount point under its volume directories. Its directory must stay while it has.
     */
    public boolean podVolumesExist(String podUid) {
        if (!asw.getPossiblyMountedVolumesForPod(podUid).isEmpty()) {
            return true;
        }
        List<Path> mounted = mountedVolumePathsOnDisk(podUid);
        if (!mounted.isEmpty()) {
            log.debug("Pod {} found, but volumes are still mounted on disk: {}", podUid, mounted);
            return true;
        }
        return false;
    }

    /** Upstream {@code getMountedVolumePathListFromDisk}. */
    private List<Path> mountedVolumePathsOnDisk(String podUid) {
        List<Path> mounted = new ArrayList<>();
        Path volumesDir = dirs.volumesDir(podUid);
        if (!Files.isDirectory(volumesDir)) {
            return mounted;
        }
        try (DirectoryStream<Path> plugins = Files.newDirectoryStream(volumesDir)) {
            for (Path plugin : plugins) {
                if (!Files.isDirectory(plugin)) {
                    continue;
                }
                try (DirectoryStream<Path> volumes = Files.newDirectoryStream(plugin)) {
                    for (Path v : volumes) {
                        // A CSI volume is mounted at <volume dir>/mount.
                        if (mounts.isMountPoint(v) || mounts.isMountPoint(v.resolve("mount"))) {
                            mounted.add(v);
                        }
                    }
                }
            }
        } catch (IOException e) {
            // Cannot tell: taken as mounted, so that nothing is removed under them.
            mounted.add(volumesDir);
        }
        return mounted;
    }

    /**
     * Upstream {@code GetVolumesInUse}: the attachable volumes pods want or the node has, sorted, for the node status's
     * {@code volumesInUse} (only CSI volumes whose CSIDriver requires attachment are: none of the in-tree plugins here).
     */
    @Override
    public List<String> getVolumesInUse() {
        Set<String> inUse = new TreeSet<>();
        dsw.getVolumesToMount().stream().filter(VolumeToMount::pluginIsAttachable)
                .forEach(v -> inUse.add(v.volumeName()));
        inUse.addAll(asw.getAttachableVolumeNames());
        return List.copyOf(inUse);
    }

    /** Upstream {@code ReconcilerStatesHasBeenSynced}: the node status may report {@link #getVolumesInUse()}. */
    @Override
    public boolean reconcilerStatesHasBeenSynced() {
        return reconciler.statesHaveBeenSynced();
    }

    /**
     * Upstream {@code MarkVolumesAsReportedInUse}: the node status listed these volumes, so that the attach/detach
     * controller will not detach them: their attachment may now be verified and the volumes mounted.
     */
    @Override
    public void markVolumesAsReportedInUse(List<String> volumesReportedAsInUse) {
        dsw.markVolumesReportedInUse(volumesReportedAsInUse);
        // The reconciler verifies them at once rather than at its next loop.
        asw.changes().signal();
    }
}
