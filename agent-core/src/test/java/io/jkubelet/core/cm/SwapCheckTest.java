package io.jkubelet.core.cm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** failSwapOn reads /proc/swaps as upstream does: a line beyond the header is swap in use. */
class SwapCheckTest {
    @TempDir
    Path dir;

    @Test
    void onlyTheHeaderMeansNoSwap() throws Exception {
        Path swaps = Files.writeString(dir.resolve("swaps"), "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");

        assertThatCode(() -> SwapCheck.failIfSwapOn(swaps)).doesNotThrowAnyException();
        assertThatCode(() -> SwapCheck.failIfSwapOn(dir.resolve("absent"))).doesNotThrowAnyException();
    }

    @Test
    void aSwapDeviceStopsTheKubeletWithUpstreamsMessage() throws Exception {
        Path swaps = Files.writeString(dir.resolve("swaps"),
                "Filename\tType\tSize\tUsed\tPriority\n/dev/zram0 partition\t988668\t0\t100\n");

        assertThatThrownBy(() -> SwapCheck.failIfSwapOn(swaps)).isInstanceOf(IllegalStateException.class)
                .hasMessage("running with swap on is not supported, please disable swap! or set --fail-swap-on flag to "
                        + "false. " + swaps + " contained: [Filename\tType\tSize\tUsed\tPriority /dev/zram0 "
                        + "partition\t988668\t0\t100]");
    }
}
