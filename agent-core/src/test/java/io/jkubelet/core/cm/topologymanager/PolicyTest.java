package io.jkubelet.core.cm.topologymanager;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The policies' merge of the providers' hints on described machines of 2 and 4 NUMA nodes, as the cases of upstream's
 * {@code policy_test.go}, {@code policy_best_effort_test.go}, {@code policy_restricted_test.go} and
 * {@code policy_single_numa_node_test.go} have them.
 */
class PolicyTest {
    static final NumaInfo TWO_NODES = NumaInfo.of(0, 1);
    static final NumaInfo FOUR_NODES = NumaInfo.of(0, 1, 2, 3);

    static TopologyHint hint(boolean preferred, int... nodes) {
        return new TopologyHint(BitMask.of(nodes), preferred);
    }

    /** One provider's hints for one resource; a null list means no preference. */
    static Map<String, List<TopologyHint>> provider(String resource, TopologyHint... hints) {
        Map<String, List<TopologyHint>> m = new HashMap<>();
        m.put(resource, hints == null ? null : Arrays.asList(hints));
        return m;
    }

    @SafeVarargs
    static Policy.Result merge(String policy, NumaInfo numa, Map<String, List<TopologyHint>>... providers) {
        return Policy.of(policy, numa, PolicyOptions.NONE).merge(List.of(providers));
    }

    @Test
    void theNarrowestPreferredHintCommonToAllProvidersWins() {
        var cpu = provider("cpu", hint(true, 0), hint(true, 1), hint(false, 0, 1));
        var gpu = provider("gpu", hint(true, 1), hint(false, 0, 1));
        for (String policy : List.of(Policy.BEST_EFFORT, Policy.RESTRICTED, Policy.SINGLE_NUMA_NODE)) {
            assertThat(merge(policy, TWO_NODES, cpu, gpu)).as(policy).isEqualTo(new Policy.Result(hint(true, 1), true));
        }
    }

    @Test
    void aProviderWithoutPreferenceLeavesTheOthersToDecide() {
        Map<String, List<TopologyHint>> none = Map.of();
        var cpu = provider("cpu", hint(true, 0), hint(true, 1), hint(false, 0, 1));
        assertThat(merge(Policy.RESTRICTED, TWO_NODES, none, cpu).hint()).isEqualTo(hint(true, 0));
        // A resource mapped to null has no preference either.
        assertThat(merge(Policy.RESTRICTED, TWO_NODES, provider("gpu", (TopologyHint[]) null), cpu).hint())
                .isEqualTo(hint(true, 0));
        assertThat(merge(Policy.BEST_EFFORT, TWO_NODES, none).hint()).isEqualTo(hint(true, 0, 1));
    }

    @Test
    void hintsOnDifferentNodesMergeToAnyNodeNotPreferredWhichOnlyBestEffortAdmits() {
        var cpu = provider("cpu", hint(true, 0));
        var gpu = provider("gpu", hint(true, 1));
        assertThat(merge(Policy.BEST_EFFORT, TWO_NODES, cpu, gpu)).isEqualTo(new Policy.Result(hint(false, 0, 1), true));
        assertThat(merge(Policy.RESTRICTED, TWO_NODES, cpu, gpu).admit()).isFalse();
        assertThat(merge(Policy.SINGLE_NUMA_NODE, TWO_NODES, cpu, gpu))
                .isEqualTo(new Policy.Result(new TopologyHint(null, false), false));
    }

    @Test
    void preferredHintsOfDifferentWidthMergeToANonPreferredHint() {
        // Upstream: "Two providers, 1 hint each, 1 wider mask, both preferred 2/2".
        var r1 = provider("resource1", hint(true, 1));
        var r2 = provider("resource2", hint(true, 0, 1));
        assertThat(merge(Policy.BEST_EFFORT, TWO_NODES, r1, r2)).isEqualTo(new Policy.Result(hint(false, 1), true));
        assertThat(merge(Policy.RESTRICTED, TWO_NODES, r1, r2)).isEqualTo(new Policy.Result(hint(false, 1), false));
    }

    @Test
    void aResourceWithNoPossiblePlacementIsNeverPreferred() {
        var cpu = provider("cpu", hint(true, 0));
        var gpu = provider("gpu");
        assertThat(merge(Policy.BEST_EFFORT, TWO_NODES, cpu, gpu)).isEqualTo(new Policy.Result(hint(false, 0), true));
        assertThat(merge(Policy.RESTRICTED, TWO_NODES, cpu, gpu).admit()).isFalse();
    }

    @Test
    void amongNonPreferredHintsTheOneAsWideAsTheWidestNarrowestMaskWins() {
        // Upstream's "bestNonPreferredAffinityCount (1)".
        var r1 = provider("resource1", hint(false, 0, 1, 2, 3), hint(false, 0, 1));
        var r2 = provider("resource2", hint(false, 0, 1));
        assertThat(merge(Policy.BEST_EFFORT, FOUR_NODES, r1, r2).hint()).isEqualTo(hint(false, 0, 1));
        // "bestNonPreferredAffinityCount (3)": a narrower merge is passed over for one of the target width.
        var r3 = provider("resource1", hint(false, 0, 1, 2, 3), hint(false, 0, 1));
        var r4 = provider("resource2", hint(false, 0, 1, 2, 3), hint(false, 0), hint(false, 0, 1));
        assertThat(merge(Policy.BEST_EFFORT, FOUR_NODES, r3, r4).hint()).isEqualTo(hint(false, 0, 1));
    }

    @Test
    void singleNumaNodeTakesOnlyHintsOfOneNodeAndGivesAnyNodeForAWholeMachine() {
        // A request that only both nodes together can hold: nothing of one node is left.
        assertThat(merge(Policy.SINGLE_NUMA_NODE, TWO_NODES, provider("cpu", hint(true, 0, 1))).admit()).isFalse();
        var cpu = provider("cpu", hint(true, 0), hint(true, 1), hint(false, 0, 1));
        var gpu = provider("gpu", hint(false, 0), hint(true, 0, 1));
        assertThat(merge(Policy.SINGLE_NUMA_NODE, TWO_NODES, cpu, gpu).admit()).isFalse();
        assertThat(merge(Policy.RESTRICTED, TWO_NODES, cpu, gpu).admit()).isFalse();
        // On a machine of one node, that node is "any node".
        assertThat(merge(Policy.SINGLE_NUMA_NODE, NumaInfo.of(0), provider("cpu", hint(true, 0))))
                .isEqualTo(new Policy.Result(new TopologyHint(null, true), true));
    }

    @Test
    void preferClosestNumaNodesPicksTheMaskWhoseNodesAreNearestEachOther() {
        Map<Integer, List<Long>> distances = Map.of(0, List.of(10L, 11L, 12L, 12L), 1, List.of(11L, 10L, 12L, 12L),
                2, List.of(12L, 12L, 10L, 11L), 3, List.of(12L, 12L, 11L, 10L));
        NumaInfo numa = new NumaInfo(List.of(0, 1, 2, 3), distances);
        var cpu = List.of(provider("cpu", hint(true, 0, 2), hint(true, 2, 3)));
        assertThat(Policy.of(Policy.BEST_EFFORT, numa, PolicyOptions.NONE).merge(cpu).hint()).isEqualTo(hint(true, 0, 2));
        PolicyOptions closest = PolicyOptions.parse(Map.of("prefer-closest-numa-nodes", "true"));
        assertThat(Policy.of(Policy.BEST_EFFORT, numa, closest).merge(cpu).hint()).isEqualTo(hint(true, 2, 3));
        assertThat(Policy.of(Policy.RESTRICTED, numa, closest).merge(cpu).hint()).isEqualTo(hint(true, 2, 3));
    }

    @Test
    void theNonePolicyAdmitsWithoutAHint() {
        assertThat(merge(Policy.NONE, TWO_NODES, provider("cpu"))).isEqualTo(new Policy.Result(TopologyHint.NONE, true));
    }

    @Test
    void masksAreEnumeratedByWidthThenNodeAndCompareAsUpstreamsBitmask() {
        List<BitMask> masks = new java.util.ArrayList<>();
        BitMask.iterateBitMasks(List.of(0, 1, 2), masks::add);
        assertThat(masks).containsExactly(BitMask.of(0), BitMask.of(1), BitMask.of(2), BitMask.of(0, 1),
                BitMask.of(0, 2), BitMask.of(1, 2), BitMask.of(0, 1, 2));
        assertThat(BitMask.of(0, 1).isNarrowerThan(BitMask.of(0, 2))).isTrue();
        assertThat(BitMask.of(3).isNarrowerThan(BitMask.of(0, 1))).isTrue();
        assertThat(BitMask.of(63).isLessThan(BitMask.of(0))).isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> BitMask.of(64))
                .hasMessage("bit number must be less than 64");
    }
}
