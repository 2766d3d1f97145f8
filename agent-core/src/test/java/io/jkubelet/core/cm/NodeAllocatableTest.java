package io.jkubelet.core.cm;

import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Node allocatable as upstream's node_container_manager_linux_test.go computes it. */
class NodeAllocatableTest {
    private static final Map<String, Quantity> CAPACITY = capacity();

    private static Map<String, Quantity> capacity() {
        Map<String, Quantity> c = new LinkedHashMap<>();
        c.put("cpu", new Quantity("4"));
        c.put("memory", new Quantity("10Gi"));
        c.put("ephemeral-storage", new Quantity("100Gi"));
        c.put("pods", new Quantity("110"));
        return c;
    }

    private static BigDecimal gi(long n) {
        return BigDecimal.valueOf(n << 30);
    }

    @Test
    void reservationIsSystemPlusKubePlusTheHardEvictionThresholds() {
        NodeAllocatable na = new NodeAllocatable(Map.of("cpu", "500m", "memory", "1Gi"),
                Map.of("cpu", "100m", "memory", "1Gi", "ephemeral-storage", "5Gi"),
                Map.of("memory.available", "100Mi", "nodefs.available", "10%", "imagefs.available", "15%"));

        Map<String, BigDecimal> r = na.reservation(CAPACITY);

        assertThat(r).containsOnlyKeys("cpu", "memory", "ephemeral-storage");
        assertThat(r.get("cpu")).isEqualByComparingTo("0.6");
        assertThat(r.get("memory")).isEqualByComparingTo(gi(2).add(BigDecimal.valueOf(100L << 20)));
        assertThat(r.get("ephemeral-storage")).isEqualByComparingTo(gi(5).add(gi(10)));
    }

    @Test
    void allocatableIsCapacityLessTheReservationNeverBelowZero() {
        NodeAllocatable na = new NodeAllocatable(Map.of("cpu", "500m"), Map.of("cpu", "4"), Map.of("memory.available", "1Gi"));

        Map<String, BigDecimal> a = na.allocatable(CAPACITY);

        assertThat(a.get("cpu")).isEqualByComparingTo("0");
        assertThat(a.get("memory")).isEqualByComparingTo(gi(9));
        assertThat(a.get("pods")).isEqualByComparingTo("110");
    }

    @Test
    void theEnforcedLimitLeavesOutEvictionThresholdsButTakesPids() {
        NodeAllocatable na = new NodeAllocatable(Map.of("memory", "1Gi", "pid", "100"), Map.of("cpu", "1"),
                Map.of("memory.available", "1Gi"));

        Map<String, BigDecimal> enforced = na.absolute(Map.of("cpu", BigDecimal.valueOf(4), "memory", gi(10),
                "pid", BigDecimal.valueOf(32768)));

        assertThat(NodeAllocatable.cgroupUnits(enforced)).containsEntry("cpu", 3000L).containsEntry("memory", 9L << 30)
                .containsEntry("pid", 32668L);
    }

    @Test
    void aReservationLargerThanTheCapacityIsRefusedWithUpstreamsMessage() {
        NodeAllocatable na = new NodeAllocatable(Map.of("memory", "8Gi"), Map.of("memory", "3Gi"), Map.of());

        assertThat(na.invalid(CAPACITY)).hasValue("invalid Node Allocatable configuration. Resource \"memory\" has a "
                + "reservation of 11811160064 but capacity of 10Gi. Expected capacity >= reservation.");
        assertThat(NodeAllocatable.NONE.invalid(CAPACITY)).isEmpty();
    }

    @Test
    void aQuantityThatDoesNotParseNamesItsField() {
        assertThatThrownBy(() -> new NodeAllocatable(Map.of(), Map.of("memory", "lots"), Map.of()).reservation(CAPACITY))
                .hasMessage("kubeReserved[memory]: invalid quantity \"lots\"");
        assertThatThrownBy(() -> new NodeAllocatable(Map.of(), Map.of(), Map.of("nodefs.available", "x%")).reservation(CAPACITY))
                .hasMessage("evictionHard[nodefs.available]: invalid threshold \"x%\"");
    }
}
