package io.jkubelet.cadvisor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The node's {@code /proc} files, {@code net/dev} and directory usage, on fake trees. */
class ProcFilesTest {
    @TempDir Path proc;

    @Test
    void netDevSkipsHeadersAndLoopback() {
        String text = """
                Inter-|   Receive                                                |  Transmit
                 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                    lo:     100       2    0    0    0     0          0         0      100       2    0    0    0     0       0          0
                  eth0:    1806      21    1    0    0     0          0         0      936      12    3    0    0     0       0          0
                """;
        assertThat(NetDev.parse(text)).containsExactly(new InterfaceStats("eth0", 1806, 1, 936, 3));
    }

    @Test
    void nodeUsageFromProcStatMeminfoAndVmstat() throws IOException {
        Files.writeString(proc.resolve("stat"), """
                cpu  100 20 30 4000 50 6 7 8 0 0
                cpu0 50 10 15 2000 25 3 3 4 0 0
                btime 1700000000
                """);
        Files.writeString(proc.resolve("meminfo"), """
                MemTotal:        8000000 kB
                MemFree:         2000000 kB
                MemAvailable:    5000000 kB
                Inactive(file):  1000000 kB
                AnonPages:        500000 kB
                """);
        Files.writeString(proc.resolve("vmstat"), "pgfault 12345\npgmajfault 67\n");
        Files.createDirectories(proc.resolve("sys/kernel"));
        Files.writeString(proc.resolve("sys/kernel/pid_max"), "32768\n");
        Files.createDirectories(proc.resolve("1"));
        Files.createDirectories(proc.resolve("42"));
        Files.createDirectories(proc.resolve("self"));

        ProcNode node = new ProcNode(proc);
        ProcNode.Sample s = node.sample();

        // user+nice+system+irq+softirq+steal ticks, 10 ms each
        assertThat(s.cpuUsageNanos()).isEqualTo((100 + 20 + 30 + 6 + 7 + 8) * 10_000_000L);
        assertThat(s.memoryTotalBytes()).isEqualTo(8000000L * 1024);
        assertThat(s.memoryUsageBytes()).isEqualTo(6000000L * 1024);
        assertThat(s.workingSetBytes()).isEqualTo(5000000L * 1024);
        assertThat(s.rssBytes()).isEqualTo(500000L * 1024);
        assertThat(s.pageFaults()).isEqualTo(12345L);
        assertThat(s.majorPageFaults()).isEqualTo(67L);
        assertThat(s.bootTime()).isEqualTo(Instant.ofEpochSecond(1700000000));
        assertThat(node.maxPid()).isEqualTo(32768L);
        assertThat(node.processCount()).isEqualTo(2L);
    }

    @Test
    void dirUsageCountsFilesAndFollowsFileLinksOnlyWhenAsked(@TempDir Path dir) throws IOException {
        Path target = Files.writeString(dir.resolve("target.log"), "x".repeat(1000));
        Path logs = Files.createDirectories(dir.resolve("pod/app"));
        Files.writeString(logs.resolve("a"), "12345");
        Files.createSymbolicLink(logs.resolve("0.log"), target);

        assertThat(DirUsage.of(dir.resolve("pod"))).isEqualTo(new DirUsage(5, 4));
        assertThat(DirUsage.of(dir.resolve("pod"), true)).isEqualTo(new DirUsage(1005, 4));
        assertThat(DirUsage.of(dir.resolve("missing"))).isEqualTo(DirUsage.EMPTY);
    }
}
