package io.jkubelet.core.prober;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.jkubelet.core.probe.ProbeResult;
import io.jkubelet.core.testing.Pods;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/** Hand-written fakes and fixtures for the prober tests. */
final class ProbeFixtures {
    private ProbeFixtures() {}

    static Probe probe(int period, int initialDelay, int successThreshold, int failureThreshold) {
        return new ProbeBuilder().withNewExec().withCommand("true").endExec().withPeriodSeconds(period)
                .withInitialDelaySeconds(initialDelay).withSuccessThreshold(successThreshold)
                .withFailureThreshold(failureThreshold).withTimeoutSeconds(1).build();
    }

    static Probe probe() {
        return probe(10, 0, 1, 1);
    }

    static Container withProbes(String name, Probe liveness, Probe readiness, Probe startup) {
        return new ContainerBuilder(Pods.container(name)).withLivenessProbe(liveness).withReadinessProbe(readiness)
                .withStartupProbe(startup).build();
    }

    static ContainerStatus running(String name, String id, Instant startedAt, boolean started) {
        return new ContainerStatusBuilder().withName(name).withContainerID(id).withStarted(started)
                .withNewState().withNewRunning().withStartedAt(startedAt.toString()).endRunning().endState().build();
    }

    static ContainerStatus terminated(String name, String id) {
        return new ContainerStatusBuilder().withName(name).withContainerID(id).withStarted(false)
                .withNewState().withNewTerminated().withExitCode(1).endTerminated().endState().build();
    }

    static PodStatus status(String phase, List<ContainerStatus> init, List<ContainerStatus> containers) {
        PodStatus s = new PodStatus();
        s.setPhase(phase);
        s.setPodIP("10.88.0.7");
        s.setInitContainerStatuses(new ArrayList<>(init));
        s.setContainerStatuses(new ArrayList<>(containers));
        return s;
    }

    static PodStatus running(ContainerStatus... containers) {
        return status("Running", List.of(), List.of(containers));
    }

    /** A prober that answers from a script per (container, probe type), then repeats its last answer. */
    static final class ScriptedProber implements ContainerProber {
        private final Map<String, Deque<ProbeResult>> scripts = new HashMap<>();
        private final Map<String, ProbeResult> last = new HashMap<>();
        final List<String> calls = new ArrayList<>();
        RuntimeException crash;
        /** Runs inside every probe, e.g. to move a fake clock by the probe's duration. */
        Runnable duringProbe = () -> {};

        synchronized void answer(String container, ProbeType type, ProbeResult... results) {
            scripts.computeIfAbsent(container + "/" + type, k -> new ArrayDeque<>()).addAll(List.of(results));
        }

        synchronized int calls(String container, ProbeType type) {
            return (int) calls.stream().filter(c -> c.startsWith(container + "/" + type + "/")).count();
        }

        @Override
        public synchronized ProbeResult probe(ProbeType type, Pod pod, String podIp, Container container, String containerId) {
            String key = container.getName() + "/" + type;
            calls.add(key + "/" + containerId + "/" + podIp);
            duringProbe.run();
            if (crash != null) {
                throw crash;
            }
            Deque<ProbeResult> script = scripts.get(key);
            if (script != null && !script.isEmpty()) {
                last.put(key, script.poll());
            }
            return last.getOrDefault(key, ProbeResult.SUCCESS);
        }
    }

    /** A ticker the test fires by hand. */
    static final class ManualTicker implements ProbeTicker {
        record Scheduled(Runnable tick, Duration firstDelay, Duration period, boolean[] cancelled) {}

        final List<Scheduled> scheduled = new ArrayList<>();

        @Override
        public synchronized Ticking schedule(Runnable tick, Duration firstDelay, Duration period) {
            boolean[] cancelled = new boolean[1];
            scheduled.add(new Scheduled(tick, firstDelay, period, cancelled));
            return () -> cancelled[0] = true;
        }

        long active() {
            return scheduled.stream().filter(s -> !s.cancelled()[0]).count();
        }

        void fire() {
            for (Scheduled s : List.copyOf(scheduled)) {
                if (!s.cancelled()[0]) {
                    s.tick().run();
                }
            }
        }
    }

    /** An executor that holds runs until the test lets them go. */
    static final class QueuedRunner implements Executor {
        final Deque<Runnable> queued = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable command) {
            queued.add(command);
        }

        void runAll() {
            Runnable r;
            while ((r = poll()) != null) {
                r.run();
            }
        }

        private synchronized Runnable poll() {
            return queued.poll();
        }
    }
}
