package io.jkubelet.core.container;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The runtime's state of every pod as the PLEG last read it (upstream {@code kubecontainer.Cache}). Each entry
 * carries the relist that observed it; a pod worker asks for a status observed after its own last sync
 * ({@link #getNewerThan}), so that it never acts twice on what it did itself. Observations are numbered by
 * relist, not timed, so that neither a coarse nor an injected clock can make a stale status look fresh.
 * Thread-safe.
 */
public final class PodCache {
    private record Entry(RuntimePodStatus status, long observedIn) {}

    private final Map<String, Entry> pods = new HashMap<>();
    /** The relist under way or last begun. */
    private long relist;
    /** Every pod absent from {@link #pods} is known absent as of this relist (upstream's global timestamp). */
    private long allObservedIn;
    private final Runnable refresh;

    /** @param refresh asks the PLEG for a relist soon: a worker waiting for a fresh status needs one */
    public PodCache(Runnable refresh) {
        this.refresh = refresh;
    }

    /** The PLEG begins a relist; what it sets until the next begins counts as observed in this one. */
    public synchronized long beginRelist() {
        return ++relist;
    }

    /** A mark after everything observed so far: a status counts as newer only if a relist begun later read it. */
    public synchronized long mark() {
        return relist;
    }

    /** The PLEG's reading of one pod in relist {@code observedIn}. */
    public synchronized void set(RuntimePodStatus status, long observedIn) {
        pods.put(status.uid(), new Entry(status, observedIn));
        notifyAll();
    }

    /** The relist {@code observedIn} has read every pod: those with no entry have nothing on the runtime. */
    public synchronized void markAllObserved(long observedIn) {
        allObservedIn = Math.max(allObservedIn, observedIn);
        notifyAll();
    }

    public synchronized void delete(String uid) {
        pods.remove(uid);
    }

    /** The latest reading of the pod, however old. */
    public synchronized Optional<RuntimePodStatus> get(String uid) {
        Entry e = pods.get(uid);
        return e == null ? Optional.empty() : Optional.of(e.status());
    }

    /**
     * The pod's status as read by a relist begun after {@code mark} (upstream {@code GetNewerThan}); waits for
     * that relist, and asks for one, at most {@code timeout}. Empty when none came in time.
     *
     * @param name      the pod's name and namespace, for the empty status of a pod the runtime does not have
     */
    public Optional<RuntimePodStatus> getNewerThan(String uid, String name, String namespace, long mark,
                                                   Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean asked = false;
        synchronized (this) {
            while (true) {
                Entry e = pods.get(uid);
                if (e != null && e.observedIn() > mark) {
                    return Optional.of(e.status());
                }
                if (allObservedIn > mark) {
                    return Optional.of(e != null ? e.status() : RuntimePodStatus.empty(uid, name, namespace));
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return Optional.empty();
                }
                if (!asked) {
                    asked = true;
                    refresh.run(); // coalesced by the PLEG; never blocks
                }
                wait(Math.max(1, left / 1_000_000));
            }
        }
    }
}
