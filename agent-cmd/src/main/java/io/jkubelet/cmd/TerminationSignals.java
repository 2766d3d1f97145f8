package io.jkubelet.cmd;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * SIGTERM and SIGINT as upstream's signal handler takes them: the first stops the agent in order and the process
 * exits 0; a second one while it stops exits 1 at once.
 */
final class TerminationSignals {
    private static final Logger log = LoggerFactory.getLogger(TerminationSignals.class);

    private TerminationSignals() {}

    static void install(Runnable stop) {
        AtomicBoolean stopping = new AtomicBoolean();
        for (String name : new String[] {"TERM", "INT"}) {
            Signal.handle(new Signal(name), signal -> {
                if (!stopping.compareAndSet(false, true)) {
                    log.warn("Received SIG{} again while stopping: exiting at once", signal.getName());
                    Runtime.getRuntime().halt(1);
                }
                log.info("Received SIG{}: stopping (containers keep running)", signal.getName());
                Thread.ofPlatform().name("stop").start(() -> {
                    long start = System.nanoTime();
                    stop.run();
                    log.info("Stopped in {} ms", (System.nanoTime() - start) / 1_000_000);
                    System.exit(0);
                });
            });
        }
    }
}
