package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.admission.MachineNode;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class KubeletNodeTest {
    private final Node machine = MachineNode.of("node-a", 110, 2, 4L << 30, 10L << 30);

    @Test
    void theMachinesNodeStandsInUntilTheNodeStatusLoopHasOneThenTheRegisteredNodeCounts() {
        AtomicReference<Node> registered = new AtomicReference<>();
        KubeletNode node = new KubeletNode(machine, () -> Optional.ofNullable(registered.get()));
        assertThat(node.get()).isSameAs(machine);
        assertThat(node.allocatable()).containsEntry("pods", new Quantity("110"));

        Node fromApiserver = MachineNode.of("node-a", 5, 1, 1L << 30, 10L << 30);
        registered.set(fromApiserver);
        assertThat(node.get()).isSameAs(fromApiserver);
        assertThat(node.allocatable()).containsEntry("pods", new Quantity("5"));
    }

    @Test
    void aNodeWithoutAllocatableGivesNoneRatherThanFailing() {
        KubeletNode node = new KubeletNode(machine, () -> Optional.of(new Node()));
        assertThat(node.allocatable()).isEmpty();
    }
}
