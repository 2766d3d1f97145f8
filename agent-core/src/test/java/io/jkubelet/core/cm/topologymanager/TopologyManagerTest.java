package io.jkubelet.core.cm.topologymanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.testing.Pods;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static io.jkubelet.core.cm.topologymanager.PolicyTest.hint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The manager as the kubelet's admit handler: its construction from the settings, its scopes, and the store. */
class TopologyManagerTest {

    /** A provider whose hints are given by container name, and which records the affinity it allocated with. */
    static final class FakeProvider implements HintProvider {
        final Function<String, Map<String, List<TopologyHint>>> hints;
        final Map<String, List<TopologyHint>> podHints;
        final List<String> allocated = new ArrayList<>();
        TopologyAffinityStore store;

        FakeProvider(Function<String, Map<String, List<TopologyHint>>> hints, Map<String, List<TopologyHint>> podHints) {
            this.hints = hints;
            this.podHints = podHints;
        }

        @Override
        public Map<String, List<TopologyHint>> getTopologyHints(Pod pod, Container container) {
            return hints.apply(container.getName());
        }

        @Override
        public Map<String, List<TopologyHint>> getPodTopologyHints(Pod pod) {
            return podHints;
        }

        @Override
        public void allocate(Pod pod, Container container) {
            allocated.add(container.getName() + "=" + store.getAffinity(pod.getMetadata().getUid(), container.getName()));
        }
    }

    private static TopologyManager manager(String policy, String scope, FakeProvider... providers) {
        TopologyManager m = TopologyManager.create(PolicyTest.TWO_NODES, policy, scope, Map.of());
        for (FakeProvider p : providers) {
            p.store = m;
            m.addHintProvider(p);
        }
        return m;
    }

    private static final Pod POD = Pods.pod("p", "Always", List.of(Pods.container("init")),
            List.of(Pods.container("app")));

    @Test
    void theContainerScopeGivesEachContainerItsOwnHintBeforeItsResourcesAreAllocated() {
        FakeProvider cpu = new FakeProvider(name -> name.equals("init")
                ? PolicyTest.provider("cpu", hint(true, 1), hint(false, 0, 1))
                : PolicyTest.provider("cpu", hint(true, 0), hint(false, 0, 1)), Map.of());
        TopologyManager m = manager(Policy.SINGLE_NUMA_NODE, TopologyManager.CONTAINER_SCOPE, cpu);
        assertThat(m.admit(POD, List.of()).admit()).isTrue();
        assertThat(cpu.allocated).containsExactly("init={[1] true}", "app={[0] true}");
        assertThat(m.getAffinity("uid-p", "app")).isEqualTo(hint(true, 0));
        assertThat(m.getAffinity("uid-p", "other")).isEqualTo(TopologyHint.NONE);
    }

    @Test
    void thePodScopeGivesEveryContainerThePodsHint() {
        FakeProvider cpu = new FakeProvider(name -> Map.of(), PolicyTest.provider("cpu", hint(true, 1), hint(true, 0)));
        TopologyManager m = manager(Policy.RESTRICTED, TopologyManager.POD_SCOPE, cpu);
        assertThat(m.admit(POD, List.of()).admit()).isTrue();
        assertThat(cpu.allocated).containsExactly("init={[0] true}", "app={[0] true}");
    }

    @Test
    void aPodWithoutAPreferredPlacementIsRefusedWithUpstreamsReasonAndNothingIsAllocated() {
        FakeProvider cpu = new FakeProvider(name -> PolicyTest.provider("cpu", hint(true, 0)),
                PolicyTest.provider("cpu", hint(true, 0)));
        FakeProvider gpu = new FakeProvider(name -> PolicyTest.provider("gpu", hint(true, 1)),
                PolicyTest.provider("gpu", hint(true, 1)));
        for (String scope : List.of(TopologyManager.CONTAINER_SCOPE, TopologyManager.POD_SCOPE)) {
            PodAdmitResult r = manager(Policy.RESTRICTED, scope, cpu, gpu).admit(POD, List.of());
            assertThat(r).as(scope).isEqualTo(PodAdmitResult.reject("TopologyAffinityError",
                    "Resources cannot be allocated with Topology locality"));
        }
        assertThat(cpu.allocated).isEmpty();
        // best-effort admits the same pod, on any node.
        assertThat(manager(Policy.BEST_EFFORT, TopologyManager.CONTAINER_SCOPE, cpu, gpu).admit(POD, List.of()).admit())
                .isTrue();
        assertThat(cpu.allocated).containsExactly("init={[0 1] false}", "app={[0 1] false}");
    }

    @Test
    void theNonePolicyAsksNoHintsAndKeepsNone() {
        FakeProvider cpu = new FakeProvider(name -> {
            throw new AssertionError("no hints under none");
        }, Map.of());
        TopologyManager m = TopologyManager.create(PolicyTest.TWO_NODES, "none", "pod",
                Map.of("not-an-option", "x"));
        cpu.store = m;
        m.addHintProvider(cpu);
        assertThat(m.admit(POD, List.of()).admit()).isTrue();
        assertThat(cpu.allocated).containsExactly("init={<nil> false}", "app={<nil> false}");
        assertThat(m.scopeName()).isEqualTo("none");
    }

    @Test
    void theHintsOfPodsNoLongerActiveAreForgottenAtTheNextAdmission() {
        FakeProvider cpu = new FakeProvider(name -> PolicyTest.provider("cpu", hint(true, 1)), Map.of());
        TopologyManager m = manager(Policy.BEST_EFFORT, TopologyManager.CONTAINER_SCOPE, cpu);
        m.admit(POD, List.of());
        Pod next = Pods.pod("q", Pods.container("app"));
        m.admit(next, List.of(POD));
        assertThat(m.getAffinity("uid-p", "app")).isEqualTo(hint(true, 1));
        m.admit(Pods.pod("r", Pods.container("app")), List.of(next));
        assertThat(m.getAffinity("uid-p", "app")).isEqualTo(TopologyHint.NONE);
        assertThat(m.getAffinity("uid-q", "app")).isEqualTo(hint(true, 1));
    }

    @Test
    void theSettingsAreRefusedWithUpstreamsMessages() {
        assertThatThrownBy(() -> TopologyManager.create(PolicyTest.TWO_NODES, "restricted", "container",
                Map.of("unknown-option", "true"))).hasMessage("unknown Topology Manager Policy option: \"unknown-option\"");
        assertThatThrownBy(() -> TopologyManager.create(PolicyTest.TWO_NODES, "restricted", "container",
                Map.of("prefer-closest-numa-nodes", "yes")))
                .hasMessage("bad value for option \"prefer-closest-numa-nodes\": strconv.ParseBool: parsing \"yes\": "
                        + "invalid syntax");
        assertThatThrownBy(() -> TopologyManager.create(PolicyTest.TWO_NODES, "restricted", "container",
                Map.of("prefer-closest-numa-nodes", "true")))
                .hasMessage("cannot discover NUMA topology: error getting NUMA distances from cadvisor");
        assertThatThrownBy(() -> TopologyManager.create(NumaInfo.of(0, 1, 2, 3, 4, 5, 6, 7, 8), "best-effort",
                "container", Map.of())).hasMessage("unsupported on machines with more than 8 NUMA Nodes");
        assertThat(TopologyManager.create(NumaInfo.of(0, 1, 2, 3, 4, 5, 6, 7, 8), "none", "container", Map.of())
                .policyName()).isEqualTo("none");
        assertThatThrownBy(() -> TopologyManager.create(PolicyTest.TWO_NODES, "strict", "container", Map.of()))
                .hasMessage("unknown policy: \"strict\"");
        assertThatThrownBy(() -> TopologyManager.create(PolicyTest.TWO_NODES, "restricted", "node", Map.of()))
                .hasMessage("unknown scope: \"node\"");
    }

    @Test
    void sysfsGivesTheNodesAndTheirDistances(@org.junit.jupiter.api.io.TempDir java.nio.file.Path sys) throws Exception {
        assertThat(SysfsNumaNodes.read(sys)).isEqualTo(NumaInfo.of(0));
        for (int n = 0; n < 2; n++) {
            java.nio.file.Path dir = java.nio.file.Files.createDirectories(sys.resolve("devices/system/node/node" + n));
            java.nio.file.Files.writeString(dir.resolve("distance"), n == 0 ? "10 21\n" : "21 10\n");
        }
        java.nio.file.Files.createDirectories(sys.resolve("devices/system/node/power"));
        assertThat(SysfsNumaNodes.read(sys)).isEqualTo(new NumaInfo(List.of(0, 1),
                Map.of(0, List.of(10L, 21L), 1, List.of(21L, 10L))));
    }
}
