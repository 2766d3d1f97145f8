package io.jkubelet.core.eviction;

import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code ParseThresholdConfig}'s rules and messages, each error naming its field and flag. */
class ThresholdParserTest {

    private static List<Threshold> parse(Map<String, String> hard, Map<String, String> soft, Map<String, String> grace,
                                         Map<String, String> minReclaim) {
        return ThresholdParser.parseThresholdConfig(List.of(), hard, soft, grace, minReclaim);
    }

    @Test
    void theDefaultHardThresholdsAreAQuantityAndPercentagesOfCapacity() {
        List<Threshold> t = parse(KubeletConfigurationDefaults.DEFAULT_EVICTION_HARD, Map.of(), Map.of(), Map.of());

        assertThat(t).extracting(Threshold::signal).containsExactly(Signal.MEMORY_AVAILABLE, Signal.NODEFS_AVAILABLE,
                Signal.NODEFS_INODES_FREE, Signal.IMAGEFS_AVAILABLE);
        assertThat(t).allMatch(Threshold::isHard);
        assertThat(t.get(0).value().quantity(0)).isEqualTo(100L << 20);
        assertThat(t.get(0).value().text()).isEqualTo("100Mi");
        // 10% as upstream's float32 takes it, of a 100 GiB file system.
        assertThat(t.get(1).value().isPercentage()).isTrue();
        assertThat(t.get(1).value().quantity(100L << 30)).isEqualTo((long) ((100L << 30) * (double) (10f / 100f)));
    }

    @Test
    void zeroAndHundredPercentSwitchAThresholdOff() {
        assertThat(parse(Map.of("memory.available", "0%", "nodefs.available", "100%"), Map.of(), Map.of(), Map.of()))
                .isEmpty();
    }

    @Test
    void softThresholdsTakeTheirGracePeriodAndEveryThresholdItsMinimumReclaim() {
        List<Threshold> t = parse(Map.of("memory.available", "100Mi"), Map.of("memory.available", "1.5Gi"),
                Map.of("memory.available", "1m30s"), Map.of("memory.available", "500Mi"));

        assertThat(t).hasSize(2);
        assertThat(t.get(0).isHard()).isTrue();
        Threshold soft = t.get(1);
        assertThat(soft.isHard()).isFalse();
        assertThat(soft.gracePeriod()).isEqualTo(Duration.ofSeconds(90));
        assertThat(soft.value().text()).isEqualTo("1536Mi");
        assertThat(t).allSatisfy(x -> assertThat(x.minReclaim().quantity(0)).isEqualTo(500L << 20));
    }

    @Test
    void enforcingNodeAllocatableOnPodsWatchesThePodsCgroupWithTheHardMemoryThreshold() {
        List<Threshold> t = ThresholdParser.parseThresholdConfig(List.of("pods"), Map.of("memory.available", "200Mi"),
                Map.of("memory.available", "1Gi"), Map.of("memory.available", "1m"), Map.of("memory.available", "5%"));

        assertThat(t).extracting(Threshold::signal).containsExactly(Signal.MEMORY_AVAILABLE, Signal.MEMORY_AVAILABLE,
                Signal.ALLOCATABLE_MEMORY_AVAILABLE);
        Threshold allocatable = t.get(2);
        assertThat(allocatable.isHard()).isTrue();
        assertThat(allocatable.value().text()).isEqualTo("200Mi");
        assertThat(allocatable.minReclaim().percentage()).isEqualTo(0.05f);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "foo.available=1Gi | evictionHard (--eviction-hard): unsupported eviction signal foo.available",
            "memory.available=-1Gi | evictionHard (--eviction-hard): eviction threshold memory.available must be positive: -1Gi",
            "memory.available=0 | evictionHard (--eviction-hard): eviction threshold memory.available must be positive: 0",
            "nodefs.available=110% | evictionHard (--eviction-hard): eviction percentage threshold nodefs.available must be <= 100%: 110%",
            "nodefs.available=-5% | evictionHard (--eviction-hard): eviction percentage threshold nodefs.available must be >= 0%: -5%",
            "nodefs.available=ten% | evictionHard (--eviction-hard): strconv.ParseFloat: parsing \"ten\": invalid syntax",
            "memory.available=5mi | evictionHard (--eviction-hard): unable to parse quantity's suffix",
            "memory.available=lots | evictionHard (--eviction-hard): quantities must match the regular expression "
                    + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"})
    void badHardThresholdsAreRefusedWithUpstreamsMessage(String statement, String message) {
        String[] kv = statement.split("=", 2);
        assertThatThrownBy(() -> parse(Map.of(kv[0], kv[1]), Map.of(), Map.of(), Map.of())).hasMessage(message);
    }

    @Test
    void aSoftThresholdWithoutGracePeriodIsRefused() {
        assertThatThrownBy(() -> parse(Map.of(), Map.of("memory.available", "1Gi"), Map.of(), Map.of()))
                .hasMessage("evictionSoftGracePeriod (--eviction-soft-grace-period): grace period must be specified "
                        + "for the soft eviction threshold memory.available");
        assertThatThrownBy(() -> parse(Map.of(), Map.of("memory.available", "1Gi"), Map.of("nodefs.available", "1m"),
                Map.of())).hasMessageEndingWith("for the soft eviction threshold memory.available");
    }

    @Test
    void badGracePeriodsAndMinimumReclaimsAreRefused() {
        assertThatThrownBy(() -> parse(Map.of(), Map.of(), Map.of("memory.available", "-1m"), Map.of()))
                .hasMessage("evictionSoftGracePeriod (--eviction-soft-grace-period): invalid eviction grace period "
                        + "specified: -1m, must be a positive value");
        assertThatThrownBy(() -> parse(Map.of(), Map.of(), Map.of("memory.available", "soon"), Map.of()))
                .hasMessage("evictionSoftGracePeriod (--eviction-soft-grace-period): time: invalid duration \"soon\"");
        assertThatThrownBy(() -> parse(Map.of(), Map.of(), Map.of("swap.available", "1m"), Map.of()))
                .hasMessage("evictionSoftGracePeriod (--eviction-soft-grace-period): unsupported eviction signal swap.available");
        assertThatThrownBy(() -> parse(Map.of(), Map.of(), Map.of(), Map.of("imagefs.available", "-2Gi")))
                .hasMessage("evictionMinimumReclaim (--eviction-minimum-reclaim): negative eviction minimum reclaim "
                        + "specified for imagefs.available");
        assertThatThrownBy(() -> parse(Map.of(), Map.of(), Map.of(), Map.of("imagefs.available", "0%")))
                .hasMessage("evictionMinimumReclaim (--eviction-minimum-reclaim): eviction percentage minimum reclaim "
                        + "imagefs.available must be positive: 0%");
    }

    @Test
    void everySignalUpstreamKnowsIsAccepted() {
        for (String s : List.of("memory.available", "nodefs.available", "nodefs.inodesFree", "imagefs.available",
                "imagefs.inodesFree", "containerfs.available", "containerfs.inodesFree", "pid.available",
                "allocatableMemory.available")) {
            assertThat(parse(Map.of(s, "5%"), Map.of(), Map.of(), Map.of())).extracting(t -> t.signal().signalName())
                    .containsExactly(s);
        }
    }
}
