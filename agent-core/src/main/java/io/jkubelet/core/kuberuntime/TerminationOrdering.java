package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.podutil.PodSpecs;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * The stop order of a pod with sidecars (upstream 1.30 {@code terminationOrdering},
 * pkg/kubelet/kuberuntime/kuberuntime_termination_order.go): every sidecar waits until all regular
 * containers have exited, and each sidecar waits for the sidecars declared after it, so sidecars stop in
 * reverse order. Containers that are not running count as exited from the start.
 *
 * <p>Thread-safe: one instance serves the parallel kills of one {@code killPod}.
 */
final class TerminationOrdering {
    /** Opened when the named container has exited. */
    private final Map<String, CountDownLatch> terminated = new HashMap<>();
    /** What the named container waits for before its stop signal. */
    private final Map<String, List<CountDownLatch>> prereqs = new HashMap<>();
    private final Clock clock;
    private final TimedWait waits;

    TerminationOrdering(Pod pod, Collection<String> runningContainerNames, Clock clock, TimedWait waits) {
        this.clock = clock;
        this.waits = waits;
        Set<String> running = Set.copyOf(runningContainerNames);
        List<CountDownLatch> mainContainers = new ArrayList<>();
        for (Container c : PodSpecs.containers(pod)) {
            CountDownLatch l = latch(running.contains(c.getName()));
            terminated.put(c.getName(), l);
            mainContainers.add(l);
        }
        String laterSidecar = null;
        List<Container> init = PodSpecs.initContainers(pod);
        for (int i = init.size() - 1; i >= 0; i--) {
            Container ic = init.get(i);
            terminated.put(ic.getName(), latch(running.contains(ic.getName())));
            if (PodSpecs.isRestartableInitContainer(ic)) {
                List<CountDownLatch> waitFor = new ArrayList<>(mainContainers);
                if (laterSidecar != null) {
                    waitFor.add(terminated.get(laterSidecar));
                }
                prereqs.put(ic.getName(), waitFor);
                laterSidecar = ic.getName();
            }
        }
    }

    private static CountDownLatch latch(boolean running) {
        CountDownLatch l = new CountDownLatch(1);
        if (!running) {
            l.countDown();
        }
        return l;
    }

    /**
     * Blocks until it is the named container's turn to be stopped, or {@code gracePeriodSeconds} have
     * passed. With no grace period there is no wait.
     *
     * @return the seconds waited, as upstream's {@code waitForTurn}
     */
    double waitForTurn(String name, long gracePeriodSeconds) throws InterruptedException {
        if (gracePeriodSeconds <= 0) {
            return 0;
        }
        long start = clock.millis();
        Duration grace = Duration.ofSeconds(gracePeriodSeconds);
        for (CountDownLatch l : prereqs.getOrDefault(name, List.of())) {
            Duration remaining = grace.minusMillis(clock.millis() - start);
            if (remaining.isNegative() || remaining.isZero() || !waits.await(l, remaining)) {
                break; // the grace period is over: stop it now
            }
        }
        return (clock.millis() - start) / 1000.0;
    }

    /** The named container has exited: whoever waits for it may go on. Idempotent. */
    void containerTerminated(String name) {
        CountDownLatch l = terminated.get(name);
        if (l != null) {
            l.countDown();
        }
    }
}
