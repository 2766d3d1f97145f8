package io.jkubelet.cadvisor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code /proc/meminfo}, the one parser of the machine's memory for its capacity and the node's usage. */
class MemInfoTest {
    @TempDir Path proc;

    @Test
    void theMachinesMemoryCapacityIsMemTotalInBytes() throws IOException {
        Files.writeString(proc.resolve("meminfo"), """
                MemTotal:        8141680 kB
                MemFree:          402108 kB
                HugePages_Total:       0
                """);

        assertThat(MemInfo.machineMemoryCapacity(proc)).isEqualTo(8141680L * 1024);
    }

    @Test
    void withoutMemTotalThereIsNoCapacityAndTheErrorNamesTheFile() throws IOException {
        Files.writeString(proc.resolve("meminfo"), "MemFree: 1 kB\n");

        assertThatThrownBy(() -> MemInfo.machineMemoryCapacity(proc))
                .isInstanceOf(IOException.class).hasMessage("no MemTotal in " + proc.resolve("meminfo"));
        assertThatThrownBy(() -> MemInfo.machineMemoryCapacity(proc.resolve("missing"))).isInstanceOf(IOException.class);
    }

    @Test
    void valuesWithoutAUnitAreCountsAndLinesThatAreNotNumbersAreSkipped() {
        MemInfo m = MemInfo.parse(List.of("HugePages_Total:      12", "Weird: n/a kB", "no colon here", "AnonPages: 3 kB"));

        assertThat(m.bytes("HugePages_Total", -1)).isEqualTo(12L);
        assertThat(m.bytes("AnonPages", -1)).isEqualTo(3072L);
        assertThat(m.bytes("Weird", -1)).isEqualTo(-1L);
        assertThat(m.bytes(MemInfo.MEM_TOTAL, -1)).isEqualTo(-1L);
    }
}
