package io.jkubelet.core.volumemanager;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.objects.PersistentVolumeClient;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumePluginMgr;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.operationexecutor.OperationExecutor;
import io.jkubelet.core.volumemanager.populator.PodManager;
import io.jkubelet.core.volumemanager.populator.PodStateProvider;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The real volume manager driven on the test's thread: its operations run in place, its passes run when a wait pauses
 * (and the manager's own fake clock moves on by the pause), so that what takes upstream's loops a while happens at once
 * and in order. The pods are the test's: {@link #mountVolumes} is a pod's sync waiting for its volumes, {@link
 * #cleanupPod} its termination.
 */
public final class ManualVolumeManager implements PodManager, PodStateProvider {
    /** The most passes a pause runs while each changes the actual state (a remount changes it at every pass). */
    private static final int PASSES_PER_PAUSE = 3;
    /** The manager's own clock: it moves only as its waits pause, past every operation's back-off. */
    private final FakeClock clock = new FakeClock();
    private final Map<String, Pod> pods = new LinkedHashMap<>();
    private final Set<String> stopped = new HashSet<>();
    private final Set<String> terminating = new HashSet<>();
    private final List<String> failedMounts = new ArrayList<>();
    private BooleanSupplier sourcesReady = () -> true;
    private boolean nodeStatusLoop;
    private final VolumeManager manager;

    public ManualVolumeManager(PodDirs dirs, ApiVolumes apiVolumes, PersistentVolumeClient persistentVolumes,
                               EventRecorder recorder) {
        this(dirs, new LinuxMounts(), VolumePlugins.probe(dirs, new LinuxMounts(), apiVolumes, recorder), persistentVolumes,
                recorder);
    }

    /** A manager whose node has no apiserver to read attachments from (nothing it mounts is attachable). */
    public ManualVolumeManager(PodDirs dirs, HostMounts mounts, VolumePluginMgr plugins,
                               PersistentVolumeClient persistentVolumes, EventRecorder recorder) {
        this(dirs, mounts, plugins, persistentVolumes, AttachDetach.STANDALONE, recorder);
    }

    /** @param attachDetach who attaches, and where the manager reads this node's Node */
    public ManualVolumeManager(PodDirs dirs, HostMounts mounts, VolumePluginMgr plugins,
                               PersistentVolumeClient persistentVolumes, AttachDetach attachDetach,
                               EventRecorder recorder) {
        EventRecorder recording = (ObjectReference involved, String type, String reason, String message) -> {
            if (OperationExecutor.FAILED_MOUNT.equals(reason) || OperationExecutor.FAILED_MAP_VOLUME.equals(reason)) {
                failedMounts.add(message);
            }
            recorder.event(involved, type, reason, message);
        };
        this.manager = new VolumeManager(plugins, dirs, mounts, this, this, persistentVolumes, attachDetach, recording,
                clock,
                Runnable::run, (changes, seen, max) -> {
                    // Past the longest back-off, so that each pause retries what failed.
                    clock.advance(Duration.ofMinutes(3));
                    // As the loops run again at once after a change: a verified attachment is mounted in the next pass.
                    for (int i = 0; i < PASSES_PER_PAUSE; i++) {
                        long before = changes.generation();
                        passes();
                        if (changes.generation() == before) {
                            break;
                        }
                    }
                });
    }

    /** A standalone node's manager over {@code root}: emptyDir, gitRepo, hostPath and downwardAPI volumes, no claims. */
    public static ManualVolumeManager standalone(Path root, EventRecorder recorder) {
        PodDirs dirs = new PodDirs(root);
        return new ManualVolumeManager(dirs, new ApiVolumes(io.jkubelet.core.objects.PodObjects.standalone(), "node-a",
                List::of, java.time.Clock.systemUTC()), PersistentVolumeClient.STANDALONE, recorder);
    }

    public VolumeManager manager() {
        return manager;
    }

    /** Whether every pod source has delivered its pods, as the populator is told. */
    public void sourcesReady(BooleanSupplier ready) {
        this.sourcesReady = ready;
    }

    /**
     * Whether the node status goes out after each pass ({@link #nodeStatusReported}), as the status loop does every
     * {@code nodeStatusUpdateFrequency}; off by default, so that nothing is reported in use unless a test says so.
     */
    public void nodeStatusLoop(boolean on) {
        this.nodeStatusLoop = on;
    }

    /** One populator pass and one reconciler pass (then the node status, with {@link #nodeStatusLoop}). */
    public void passes() {
        manager.runPasses(sourcesReady);
        if (nodeStatusLoop) {
            nodeStatusReported();
        }
    }

    /** Time passes beyond every operation's back-off, then one pass of each loop: what failed is tried again. */
    public void passesAfterBackOff() {
        clock.advance(Duration.ofMinutes(3));
        passes();
    }

    /**
     * What the node status loop does after a successful patch: the volume manager's volumes in use, once it reports
     * them, are what the Node lists (upstream {@code MarkVolumesAsReportedInUse} of the patched node).
     */
    public void nodeStatusReported() {
        if (manager.reconcilerStatesHasBeenSynced()) {
            manager.markVolumesAsReportedInUse(manager.getVolumesInUse());
        }
    }

    /** The reconstruction of a restarted kubelet, before its first passes. */
    public void reconstruct() {
        manager.reconstruct();
    }

    /** The pod comes from a source (the pod manager holds it, a worker syncs it). */
    public void add(Pod pod) {
        String uid = pod.getMetadata().getUid();
        pods.put(uid, pod);
        stopped.remove(uid);
        terminating.remove(uid);
    }

    /**
     * The pod's sync waiting for its volumes (upstream {@code WaitForAttachAndMount}), the pod added first.
     *
     * @return the host path of each mounted volume, by name
     * @throws VolumeException the last {@code FailedMount} event of a mount that failed, or the wait's error
     */
    public Map<String, Path> mountVolumes(Pod pod) throws VolumeException {
        add(pod);
        failedMounts.clear();
        manager.reprocess(pod.getMetadata().getUid());
        // The first pass verifies the volumes' attachment, the second mounts them (the reconciler's loop runs again at
        // once after the verification's change).
        passes();
        passes();
        try {
            manager.waitForAttachAndMount(pod, () -> false);
        } catch (VolumeWaitException e) {
            throw new VolumeException(e.interrupted() && !failedMounts.isEmpty() ? failedMounts.getLast() : e.getMessage());
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        Map<String, Path> paths = new LinkedHashMap<>();
        manager.getMountedVolumesForPod(pod).forEach((name, info) -> paths.put(name, info.path()));
        return paths;
    }

    /** A sync of a running pod: its volumes are processed again and those that follow objects written again. */
    public void remountVolumes(Pod pod) throws VolumeException {
        mountVolumes(pod);
    }

    /** The pod's containers are stopped and it leaves the sources: its volumes are unmounted (upstream {@code WaitForUnmount}). */
    public void cleanupPod(String uid) {
        Pod pod = pods.remove(uid);
        stopped.add(uid);
        terminating.add(uid);
        if (pod == null) {
            passes();
            return;
        }
        try {
            manager.waitForUnmount(pod);
        } catch (VolumeWaitException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The pod's worker was asked to stop it: its volumes are not mounted again. */
    public void terminating(String uid) {
        terminating.add(uid);
    }

    /** The pod's containers are stopped (it stays in the pod manager). */
    public void containersStopped(String uid) {
        terminating.add(uid);
        stopped.add(uid);
    }

    @Override
    public List<Pod> pods() {
        return List.copyOf(pods.values());
    }

    @Override
    public Optional<Pod> get(String uid) {
        return Optional.ofNullable(pods.get(uid));
    }

    @Override
    public boolean shouldPodContainersBeTerminating(String uid) {
        return terminating.contains(uid);
    }

    @Override
    public boolean shouldPodRuntimeBeRemoved(String uid) {
        return stopped.contains(uid) || !pods.containsKey(uid);
    }
}
