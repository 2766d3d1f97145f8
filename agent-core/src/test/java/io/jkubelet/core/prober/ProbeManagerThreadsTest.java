package io.jkubelet.core.prober;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.probe.ProbeResult;
import io.jkubelet.core.testing.Pods;
import io.jkubelet.core.util.DaemonThreads;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

import static io.jkubelet.core.prober.ProbeFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The production wiring (scheduler thread + virtual threads), with real time: waits, never asserts timings. */
class ProbeManagerThreadsTest {
    @Test
    void aHangingProbeDoesNotStallTheOtherWorkers() {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ContainerProber prober = (type, pod, podIp, container, containerId) -> {
            if (container.getName().equals("stuck")) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return ProbeResult.SUCCESS;
        };
        Clock clock = Clock.systemUTC();
        Container stuck = withProbes("stuck", null, probe(1, 0, 1, 3), null);
        Container fine = withProbes("fine", null, probe(1, 0, 1, 3), null);
        Pod pod = Pods.pod("web", stuck, fine);
        var status = running(running("stuck", "docker://s1", clock.instant(), true),
                running("fine", "docker://f1", clock.instant(), true));

        try (ProbeManager manager = ProbeManager.create(prober, uid -> Optional.of(status), ProbeResultListener.NONE,
                new ProberMetrics(new PrometheusRegistry()), clock, DaemonThreads.scheduler("probe-ticker"),
                Executors.newVirtualThreadPerTaskExecutor())) {
            manager.addPod(pod);
            await().atMost(Duration.ofSeconds(10)).until(() -> entered.getCount() == 0);
            await().atMost(Duration.ofSeconds(10)).until(() -> manager.ready("uid-web", fine, "f1"));
            assertThat(manager.ready("uid-web", stuck, "s1")).isFalse();

            release.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> manager.ready("uid-web", stuck, "s1"));

            manager.removePod(pod);
            await().atMost(Duration.ofSeconds(10)).until(() -> manager.workerCount() == 0);
        }
    }
}
