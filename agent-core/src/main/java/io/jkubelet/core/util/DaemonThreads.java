package io.jkubelet.core.util;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** Background threads of the agent: daemon threads with a name, so that they never hold the process up. */
public final class DaemonThreads {
    private DaemonThreads() {}

    /** A single-threaded scheduler whose one thread is a daemon called {@code name}. */
    public static ScheduledExecutorService scheduler(String name) {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
    }
}
