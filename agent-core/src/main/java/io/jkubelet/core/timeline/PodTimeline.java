package io.jkubelet.core.timeline;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * One pod's timeline: the last {@link #MAX_ENTRIES} things that happened to it, oldest first. Thread-safe.
 */
public final class PodTimeline {
    /** Enough for a crash-looping pod's last forty or so restarts (about five entries each). */
    static final int MAX_ENTRIES = 200;

    private final String namespace;
    private final String name;
    private final String uid;
    private final Deque<TimelineEntry> entries = new ArrayDeque<>();
    private volatile Instant last = Instant.MIN;

    PodTimeline(String namespace, String name, String uid) {
        this.namespace = namespace;
        this.name = name;
        this.uid = uid;
    }

    synchronized void add(TimelineEntry entry) {
        TimelineEntry previous = entries.peekLast();
        if (previous != null && previous.repeatedBy(entry)) {
            entries.removeLast();
            entries.addLast(previous.repeatedAt(entry.time()));
        } else {
            if (entries.size() == MAX_ENTRIES) {
                entries.removeFirst();
            }
            entries.addLast(entry);
        }
        last = entry.time();
    }

    /** The entries, oldest first. */
    public synchronized List<TimelineEntry> entries() {
        return new ArrayList<>(entries);
    }

    public String namespace() {
        return namespace;
    }

    public String name() {
        return name;
    }

    public String uid() {
        return uid;
    }

    /** When the newest entry happened. */
    Instant last() {
        return last;
    }
}
