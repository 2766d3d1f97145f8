package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Merges the pods of every source into one consistent set and hands the sync loop incremental
 * changes, in order ({@code config.PodConfig} in incremental mode).
 *
 * <p>Each source gets its sink from {@link #channel(String)} and sends full {@link PodOperation#SET}
 * snapshots (or ADD/UPDATE/DELETE/REMOVE of single pods). For each update it receives, PodConfig
 * emits, in this order and each only when not empty: REMOVE, ADD, UPDATE, DELETE, then RECONCILE;
 * on a source's first SET that adds, updates and deletes nothing, an empty ADD tells the kubelet the
 * source is ready. A pod is an UPDATE when its spec, labels, deletion timestamp, deletion grace
 * period or non-local annotations changed (a DELETE when the deletion timestamp got set), a
 * RECONCILE when only its status changed. Every pod gets {@code kubernetes.io/config.source} and,
 * when first seen, {@code kubernetes.io/config.seen}, which then stays as it was.
 *
 * <p>Thread-safe: sources send from their own threads. Updates wait in a queue of
 * {@value #UPDATES_CAPACITY}; a source's send blocks while it is full.
 */
public final class PodConfig {

    /** The capacity of the updates queue, as upstream's channel buffer. */
    public static final int UPDATES_CAPACITY = 50;

    /** Where the merged updates go: the sync loop, or this config's own queue. */
    @FunctionalInterface
    public interface Output {
        /** Hands over one update; may block while the receiver is full. */
        void put(PodUpdate update) throws InterruptedException;
    }

    /** Its own queue when it has no other output; the sync loop takes from it then. */
    private final BlockingQueue<PodUpdate> updates;
    private final PodStorage storage;
    private final DisabledPodFields disabledFields;
    private final Set<String> sources = new TreeSet<>();

    /**
     * @param recorder where a pod dropped for a duplicate name is reported
     * @param clock    the time for {@code kubernetes.io/config.seen}
     */
    public PodConfig(PodEventRecorder recorder, Clock clock) {
        this.disabledFields = DisabledPodFields.NONE;
        this.updates = new ArrayBlockingQueue<>(UPDATES_CAPACITY);
        this.storage = new PodStorage(updates::put, Objects.requireNonNull(recorder, "recorder"),
                Objects.requireNonNull(clock, "clock"));
    }

    /** A PodConfig that sends its updates to {@code output} (the sync loop) instead of its own queue. */
    public PodConfig(PodEventRecorder recorder, Clock clock, Output output) {
        this(recorder, clock, output, DisabledPodFields.NONE);
    }

    /**
     * A PodConfig that sends its updates to {@code output} and drops {@code disabledFields} from every pod a source
     * sends.
     */
    public PodConfig(PodEventRecorder recorder, Clock clock, Output output, DisabledPodFields disabledFields) {
        this.disabledFields = Objects.requireNonNull(disabledFields, "disabledFields");
        this.updates = null;
        this.storage = new PodStorage(Objects.requireNonNull(output, "output"),
                Objects.requireNonNull(recorder, "recorder"), Objects.requireNonNull(clock, "clock"));
    }

    /** A PodConfig with no event recorder, on the system clock. */
    public PodConfig() {
        this(PodEventRecorder.NOOP, Clock.systemUTC());
    }

    /**
     * Registers {@code source} and returns the sink it sends its updates to. Calling it again for the
     * same source returns an equivalent sink. Updates whose {@link PodUpdate#source()} differs are
     * merged as coming from {@code source}.
     */
    public PodUpdateSink channel(String source) {
        Objects.requireNonNull(source, "source");
        synchronized (sources) {
            sources.add(source);
        }
        return update -> storage.merge(source, disabledFields.apply(update));
    }

    /**
     * The queue of merged updates. The sync loop takes from it; nothing else should put into it.
     * Never a SET, except the one {@link #sync()} asks for.
     */
    public BlockingQueue<PodUpdate> updates() {
        return ownQueue();
    }

    /** Waits for the next update. */
    public PodUpdate take() throws InterruptedException {
        return ownQueue().take();
    }

    /** Waits at most {@code timeout} for the next update; {@code null} when none came. */
    public PodUpdate poll(Duration timeout) throws InterruptedException {
        return ownQueue().poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    private BlockingQueue<PodUpdate> ownQueue() {
        if (updates == null) {
            throw new IllegalStateException("this pod config sends its updates to its output");
        }
        return updates;
    }

    /** The names of the registered sources. */
    public Set<String> sources() {
        synchronized (sources) {
            return Set.copyOf(sources);
        }
    }

    /**
     * Whether every registered source is in {@code seenSources} (what the sync loop has been told
     * about) and has sent at least one SET ({@code SeenAllSources}).
     */
    public boolean seenAllSources(Set<String> seenSources) {
        Set<String> registered = sources();
        return seenSources.containsAll(registered) && storage.seenSources(registered);
    }

    /** Emits every pod of every source as one SET from {@link PodSources#ALL}. */
    public void sync() throws InterruptedException {
        storage.sync();
    }

    /** Copies of every pod of every source, as merged. */
    public List<Pod> mergedState() {
        return storage.mergedState();
    }
}
