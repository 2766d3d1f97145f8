package io.jkubelet.core.nodestatus;

import java.time.Duration;

/** How the registration and lease loops wait between attempts; tests replace it to run without real time. */
@FunctionalInterface
public interface Sleeper {
    Sleeper REAL = d -> Thread.sleep(d);

    void sleep(Duration d) throws InterruptedException;
}
