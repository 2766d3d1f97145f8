package io.jkubelet.core.container;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The runtime's state of every pod as last read, and which pods changed since (upstream {@code kubecontainer.Cache},
 * filled lazily). The PLEG numbers its relists and marks the pods whose sandboxes or containers it saw change; a
 * pod worker asks for its pod's state as known after its own last sync ({@link #getNewerThan}): the reading held
 * here when the pod has not changed since, or none when it has, and the worker then reads the runtime and
 * {@link #set}s what it read. So each change costs one reading, by the worker that needs it, and a pod that did
 * not change costs none; a relist itself reads nothing, which keeps it cheap enough to run on every runtime event.
 * Relists are numbered, not timed, so that neither a coarse nor an injected clock can make a stale state look
 * fresh. Thread-safe.
 */
public final class PodCache {
    private record Entry(RuntimePodStatus status, long readAfter) {}

    private final Map<String, Entry> pods = new HashMap<>();
    /** The last relist that saw each pod change. */
    private final Map<String, Long> changedIn = new HashMap<>();
    /** The relist under way or last begun. */
    private long relist;
    /** The last relist that finished: every pod's changes up to its listing are marked. */
    private long completed;
    /** The PLEG begins a relist. */
    public synchronized long beginRelist() {
        return ++relist;
    }

    /** The PLEG's relist {@code number} saw the pod's sandboxes or containers change (or go). */
    public synchronized void markChanged(String uid, long number) {
        changedIn.merge(uid, number, Math::max);
    }

    /** The PLEG's relist {@code number} has marked every change it saw. */
    public synchronized void completeRelist(long number) {
        completed = Math.max(completed, number);
        notifyAll();
    }

    /** A mark for "after now": only a relist begun later tells what happened after it. */
    public synchronized long mark() {
        return relist;
    }

    /** The mark to take just before reading a pod: the last relist finished, whose listing the reading follows. */
    public synchronized long readMark() {
        return completed;
    }

    /**
     * A reading of the pod's state begun after relist {@code readAfter} had finished ({@link #readMark()}). It
     * counts as current until a later relist sees the pod change; one under way while it was read may have
     * listed before or after it, so its changes count too.
     */
    public synchronized void set(RuntimePodStatus status, long readAfter) {
        Entry old = pods.get(status.uid());
        if (old == null || old.readAfter() <= readAfter) {
            pods.put(status.uid(), new Entry(status, readAfter));
        }
    }

    /** Forgets a pod that is gone for good. */
    public synchronized void delete(String uid) {
        pods.remove(uid);
        changedIn.remove(uid);
    }

    /** The latest reading of the pod, however old: for views and garbage collection, which tolerate a stale one. */
    public synchronized Optional<RuntimePodStatus> get(String uid) {
        Entry e = pods.get(uid);
        return e == null ? Optional.empty() : Optional.of(e.status());
    }

    /** What {@link #getNewerThan} knows of a pod. */
    public sealed interface Lookup {
        /** The reading held here is current: nothing changed since it was read. */
        record Current(RuntimePodStatus status) implements Lookup {}

        /** The pod changed since it was last read (or was never read): read the runtime. */
        record Changed() implements Lookup {}

        /** No relist begun after the mark finished in time: read the runtime. */
        record Unknown() implements Lookup {}
    }

    /**
     * The pod's state as known after {@code mark} (upstream {@code GetNewerThan}): waits, asking for a relist, at
     * most {@code timeout} for a relist begun after {@code mark} to finish, then says whether the reading held
     * here is still current.
     *
     * @param name the pod's name and namespace, for the empty state of a pod the runtime has never had
     * @param relistRequest asks the PLEG for a relist soon, once, when the caller has to wait for one (it must not block)
     */
    public Lookup getNewerThan(String uid, String name, String namespace, long mark, Duration timeout,
                               Runnable relistRequest) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean asked = false;
        synchronized (this) {
            while (completed <= mark) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return new Lookup.Unknown();
                }
                if (!asked) {
                    asked = true;
                    relistRequest.run(); // coalesced by the PLEG; never blocks
                }
                wait(Math.max(1, left / 1_000_000));
            }
            Entry e = pods.get(uid);
            Long changed = changedIn.get(uid);
            if (e == null) {
                return changed == null ? new Lookup.Current(RuntimePodStatus.empty(uid, name, namespace)) : new Lookup.Changed();
            }
            return changed != null && changed > e.readAfter() ? new Lookup.Changed() : new Lookup.Current(e.status());
        }
    }
}
