package io.jkubelet.core.kuberuntime.testing;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.kuberuntime.KubeRuntime;
import io.jkubelet.core.kuberuntime.SyncResult;
import io.jkubelet.core.prober.ProbeVerdicts;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A runtime at the level of pods, after upstream's {@code container/testing/fake_runtime.go}: each pod's status is
 * what the test put there, each sync returns what the test scripted, and every call is recorded, so that the
 * kubelet's own logic is tested without containers.
 */
public final class FakeKubeRuntime implements KubeRuntime {
    private final Map<String, RuntimePodStatus> statuses = new ConcurrentHashMap<>();
    private final Map<String, Duration> crashLoops = new ConcurrentHashMap<>();
    private volatile Function<Pod, SyncResult> syncResults = pod -> new SyncResult();
    /** Every call, as {@code "syncPod <name>"}, {@code "killPod <name> <grace>"}, ... */
    public final List<String> calls = new CopyOnWriteArrayList<>();

    /** What the runtime has of the pod from now on. */
    public void setPodStatus(RuntimePodStatus status) {
        statuses.put(status.uid(), status);
    }

    /** What each sync returns from now on. */
    public void onSync(Function<Pod, SyncResult> results) {
        this.syncResults = results;
    }

    /** The named container of every pod backs off for {@code left} more. */
    public void setCrashLoopRemaining(String containerName, Duration left) {
        crashLoops.put(containerName, left);
    }

    @Override
    public String type() {
        return "fake";
    }

    @Override
    public RuntimePodStatus getPodStatus(String uid, String name, String namespace) {
        return statuses.getOrDefault(uid, RuntimePodStatus.empty(uid, name, namespace));
    }

    @Override
    public SyncResult syncPod(Pod pod, RuntimePodStatus podStatus, ProbeVerdicts probes) {
        calls.add("syncPod " + pod.getMetadata().getName());
        return syncResults.apply(pod);
    }

    @Override
    public void killPod(Pod pod, RuntimePodStatus podStatus, Long gracePeriodOverride) {
        calls.add("killPod " + pod.getMetadata().getName() + " " + gracePeriodOverride);
        statuses.remove(pod.getMetadata().getUid());
    }

    @Override
    public Optional<Duration> crashLoopRemaining(Pod pod, RuntimePodStatus podStatus, String containerName) {
        return Optional.ofNullable(crashLoops.get(containerName));
    }

    @Override
    public void removePod(String uid) {
        calls.add("removePod " + uid);
        statuses.remove(uid);
    }

    @Override
    public void garbageCollect(GCPolicy policy, boolean allSourcesReady, boolean evictNonDeletedPods) {
        calls.add("garbageCollect " + allSourcesReady + " " + evictNonDeletedPods);
    }
}
