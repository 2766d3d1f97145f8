package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.prober.ProbeVerdicts;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.container.SandboxStatus;
import io.jkubelet.core.container.State;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.config.DisabledPodFields;
import io.jkubelet.core.config.PodConfig;
import io.jkubelet.core.config.PodEventRecorder;
import io.jkubelet.core.config.PodSources;
import io.jkubelet.core.config.PodUpdate;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.jkubelet.core.testing.Pods.container;
import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** Upstream 1.30 computeInitContainerActions cases for pods with sidecars (restartable init containers). */
class SidecarComputePodActionsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static Container sidecar(String name) {
        return new ContainerBuilder(container(name)).withRestartPolicy("Always").build();
    }

    private static Container withStartupProbe(Container c) {
        return new ContainerBuilder(c).withNewStartupProbe().withNewExec().withCommand("true").endExec().endStartupProbe().build();
    }

    private static Container withLivenessProbe(Container c) {
        return new ContainerBuilder(c).withNewLivenessProbe().withNewExec().withCommand("true").endExec().endLivenessProbe().build();
    }

    private static ContainerStatus status(Container c, State state, int exitCode) {
        return new ContainerStatus("id-" + c.getName(), "docker", c.getName(), state, T0, T0,
                state == State.EXITED ? T0.plusSeconds(1) : null, exitCode, c.getImage(), "sha256:x",
                ContainerHash.of(c), 0, "", "", "sb1", "/dev/termination-log", "");
    }

    private static RuntimePodStatus running(Pod pod, ContainerStatus... cs) {
        return new RuntimePodStatus(pod.getMetadata().getUid(), pod.getMetadata().getName(), "default", List.of("10.0.0.2"),
                List.of(new SandboxStatus("sb1", 0, true, T0, List.of("10.0.0.2"), false)), List.of(cs));
    }

    /** Probe results by container id. */
    record Verdicts(Set<String> livenessFailed, Set<String> startupFailed, Set<String> started) implements ProbeVerdicts {
        static Verdicts none() {
            return new Verdicts(Set.of(), Set.of(), null);
        }

        @Override public boolean livenessFailed(String id) { return livenessFailed.contains(id); }
        @Override public boolean startupFailed(String id) { return startupFailed.contains(id); }
        @Override public boolean startupSucceeded(String id) { return started == null || started.contains(id); }
    }

    record Case(String name, Pod pod, RuntimePodStatus status, Verdicts probes, boolean killPod, List<Integer> initToStart,
                List<Integer> toStart, List<String> killed) {}

    @Test
    void sidecarInitActions() {
        Container s1 = sidecar("s1"), i2 = container("i2"), app = container("app");
        Container s1p = withStartupProbe(sidecar("s1"));
        Container s1l = withLivenessProbe(sidecar("s1"));
        Pod always = pod("p", "Always", List.of(s1, i2), List.of(app));
        Pod probed = pod("p", "Always", List.of(s1p, i2), List.of(app));
        Pod live = pod("p", "Always", List.of(s1l), List.of(app));
        Pod never = pod("p", "Never", List.of(s1), List.of(app));
        Pod neverTwo = pod("p", "Never", List.of(s1, i2), List.of(app));
        Pod twoSidecars = pod("p", "Always", List.of(s1, sidecar("s2")), List.of(app));

        List<Case> cases = List.of(
                new Case("new pod starts the first init container", always, RuntimePodStatus.empty("uid-p", "p", "default"),
                        Verdicts.none(), true, List.of(0), List.of(), List.of()),
                new Case("running sidecar lets the next init container start", always, running(always,
                        status(s1, State.RUNNING, 0)), Verdicts.none(), false, List.of(1), List.of(), List.of()),
                new Case("sidecar with a startup probe not yet succeeded holds the next one", probed, running(probed,
                        status(s1p, State.RUNNING, 0)), new Verdicts(Set.of(), Set.of(), Set.of()), false, List.of(),
                        List.of(), List.of()),
                new Case("sidecar whose startup succeeded lets the next one start", probed, running(probed,
                        status(s1p, State.RUNNING, 0)), new Verdicts(Set.of(), Set.of(), Set.of("id-s1")), false,
                        List.of(1), List.of(), List.of()),
                new Case("sidecar whose startup probe failed is restarted", probed, running(probed,
                        status(s1p, State.RUNNING, 0)), new Verdicts(Set.of(), Set.of("id-s1"), Set.of()), false,
                        List.of(0), List.of(), List.of("id-s1")),
                new Case("initialised: app containers start beside the running sidecar", always, running(always,
                        status(s1, State.RUNNING, 0), status(i2, State.EXITED, 0)), Verdicts.none(), false, List.of(),
                        List.of(0), List.of()),
                new Case("dead sidecar is restarted even with restartPolicy Never", never, running(never,
                        status(s1, State.EXITED, 1), status(app, State.RUNNING, 0)), Verdicts.none(), false,
                        List.of(0), List.of(), List.of()),
                new Case("sidecar failing liveness is killed and restarted", live, running(live,
                        status(s1l, State.RUNNING, 0), status(app, State.RUNNING, 0)),
                        new Verdicts(Set.of("id-s1"), Set.of(), null), false, List.of(0), List.of(), List.of("id-s1")),
                new Case("regular init container failing with Never kills the pod", neverTwo, running(neverTwo,
                        status(s1, State.RUNNING, 0), status(i2, State.EXITED, 1)), Verdicts.none(), true, List.of(),
                        List.of(), List.of()),
                new Case("app done with Never: the pod completes and its sidecar is not restarted", never,
                        running(never, status(s1, State.RUNNING, 0), status(app, State.EXITED, 0)), Verdicts.none(),
                        true, List.of(), List.of(), List.of()),
                new Case("both dead sidecars restart at once after initialisation", twoSidecars, running(twoSidecars,
                        status(s1, State.EXITED, 1), status(sidecar("s2"), State.EXITED, 1), status(app, State.RUNNING, 0)),
                        Verdicts.none(), false, List.of(0, 1), List.of(), List.of()));

        List<String> failures = new ArrayList<>();
        for (Case c : cases) {
            PodActions a = ComputePodActions.compute(c.pod(), c.status(), c.probes());
            if (a.killPod() != c.killPod() || !a.initContainersToStart().equals(c.initToStart())
                    || !a.containersToStart().equals(c.toStart())
                    || !new ArrayList<>(a.containersToKill().keySet()).equals(c.killed())
                    || a.nextInitContainerToStart() != null) {
                failures.add(c.name() + ": got killPod=" + a.killPod() + " init=" + a.initContainersToStart()
                        + " start=" + a.containersToStart() + " kill=" + a.containersToKill().keySet());
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void withSidecarContainersOffARestartableInitContainerIsAnOrdinaryOneThatMustComplete() throws Exception {
        Container s1 = sidecar("s1"), i2 = container("i2"), app = container("app");
        Pod sent = pod("p", "Always", List.of(s1, i2), List.of(app));
        List<PodUpdate> received = new ArrayList<>();
        PodConfig config = new PodConfig(PodEventRecorder.NOOP, Clock.systemUTC(), received::add,
                DisabledPodFields.of(FeatureGates.of(Map.of(FeatureGates.SIDECAR_CONTAINERS, false))));

        config.channel(PodSources.FILE).send(PodUpdate.set(PodSources.FILE, List.of(sent)));

        Pod pod = received.get(0).pods().get(0);
        assertThat(pod.getSpec().getInitContainers()).extracting(Container::getRestartPolicy).containsOnlyNulls();
        assertThat(sent.getSpec().getInitContainers().get(0).getRestartPolicy()).as("the source's pod").isEqualTo("Always");
        // s1 running: with the gate on (sidecarInitActions) i2 would start beside it; off, s1 must exit first.
        PodActions running = ComputePodActions.compute(pod, running(pod, status(pod.getSpec().getInitContainers().get(0),
                State.RUNNING, 0)), Verdicts.none());
        assertThat(running.initContainersToStart()).isEmpty();
        assertThat(running.nextInitContainerToStart()).isNull();
        assertThat(running.containersToStart()).isEmpty();
        PodActions exited = ComputePodActions.compute(pod, running(pod, status(pod.getSpec().getInitContainers().get(0),
                State.EXITED, 0)), Verdicts.none());
        assertThat(exited.nextInitContainerToStart().getName()).isEqualTo("i2");

        received.clear();
        PodConfig defaults = new PodConfig(PodEventRecorder.NOOP, Clock.systemUTC(), received::add,
                DisabledPodFields.of(FeatureGates.of(Map.of())));
        defaults.channel(PodSources.FILE).send(PodUpdate.set(PodSources.FILE, List.of(sent)));
        assertThat(received.get(0).pods().get(0).getSpec().getInitContainers().get(0).getRestartPolicy())
                .as("the gate's default keeps sidecars").isEqualTo("Always");
    }

    @Test
    void killReasonsNameTheProbe() {
        Container s1 = withLivenessProbe(sidecar("s1")), app = container("app");
        Pod pod = pod("p", "Always", List.of(s1), List.of(app));
        PodActions a = ComputePodActions.compute(pod, running(pod, status(s1, State.RUNNING, 0), status(app, State.RUNNING, 0)),
                new Verdicts(Set.of("id-s1"), Set.of(), null));
        assertThat(a.containersToKill().get("id-s1").reason()).isEqualTo(ComputePodActions.REASON_LIVENESS_PROBE);
        assertThat(a.containersToKill().get("id-s1").message()).isEqualTo("Init container s1 failed liveness probe");
    }

    @Test
    void podsWithoutSidecarsKeepUsingNextInitContainer() {
        Pod pod = pod("p", "Always", List.of(container("i1")), List.of(container("a")));
        PodActions a = ComputePodActions.compute(pod, RuntimePodStatus.empty("uid-p", "p", "default"), ProbeVerdicts.NONE);
        assertThat(a.nextInitContainerToStart().getName()).isEqualTo("i1");
        assertThat(a.initContainersToStart()).isEmpty();
    }
}
