package io.jkubelet.core.volume.csi;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CsiVersionTest {
    @Test
    void genericVersionsIgnoreAPrefixVAndWhatFollowsTheNumbers() {
        assertThat(CsiVersion.parseGeneric("v1.2")).hasToString("1.2");
        assertThat(CsiVersion.parseGeneric("1.0.0-rc2")).hasToString("1.0.0");
        assertThat(CsiVersion.parseGeneric("1.10.0").compareTo(CsiVersion.parseGeneric("1.9.9"))).isPositive();
        assertThat(CsiVersion.parseGeneric("1.2").compareTo(CsiVersion.parseGeneric("1.2.0"))).isZero();
        assertThatThrownBy(() -> CsiVersion.parseGeneric("1")).hasMessage("could not parse \"1\" as version");
        assertThatThrownBy(() -> CsiVersion.parseGeneric("01.2"))
                .hasMessage("illegal zero-prefixed version component \"01\" in \"01.2\"");
    }

    @Test
    void theHighestSupportedIsTheHighest1xAnd2xIsPassedOver() {
        assertThat(CsiVersion.highestSupported(List.of("1.0.0", "2.0.0", "1.3.0", "0.3.0"))).hasToString("1.3.0");
        assertThatThrownBy(() -> CsiVersion.highestSupported(List.of("0.2.0", "0.3.0")))
                .hasMessage("highest supported version reported is 0.3.0, must be v1.x");
        assertThatThrownBy(() -> CsiVersion.highestSupported(List.of()))
                .hasMessage("empty array for supported versions");
    }
}
