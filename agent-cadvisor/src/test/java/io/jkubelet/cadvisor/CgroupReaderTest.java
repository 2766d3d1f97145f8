package io.jkubelet.cadvisor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Both hierarchy layouts, read from fake cgroup trees as the kernel lays them out. */
class CgroupReaderTest {
    private static final String ID = "/docker/0123abcd";

    @TempDir Path root;

    @Test
    void v1ReadsEachControllerFromItsOwnHierarchy() throws IOException {
        write("cpuacct" + ID + "/cpuacct.usage", "123456789\n");
        write("memory" + ID + "/memory.usage_in_bytes", "73400320\n");
        write("memory" + ID + "/memory.limit_in_bytes", "9223372036854771712\n");
        write("memory" + ID + "/memory.stat", """
                cache 10485760
                rss 1000
                pgfault 5
                inactive_file 999
                total_cache 10485760
                total_rss 62914560
                total_pgfault 4242
                total_pgmajfault 7
                total_inactive_file 8388608
                """);
        write("pids" + ID + "/pids.current", "3\n");
        write("cpu" + ID + "/cpu.shares", "1024\n");
        write("cpu" + ID + "/cpu.cfs_quota_us", "-1\n");
        write("cpu" + ID + "/cpu.cfs_period_us", "100000\n");

        CgroupSample s = new CgroupV1Reader(root).read(ID).orElseThrow();

        assertThat(s.cpuUsageNanos()).isEqualTo(123456789L);
        assertThat(s.memoryUsageBytes()).isEqualTo(73400320L);
        // cAdvisor's working set: usage minus the hierarchical inactive file cache (not the cgroup's own)
        assertThat(s.workingSetBytes()).isEqualTo(73400320L - 8388608L);
        assertThat(s.rssBytes()).isEqualTo(62914560L);
        assertThat(s.pageFaults()).isEqualTo(4242L);
        assertThat(s.majorPageFaults()).isEqualTo(7L);
        assertThat(s.memoryLimitBytes()).as("the kernel's unlimited").isEqualTo(-1L);
        assertThat(s.processCount()).isEqualTo(3L);
        assertThat(s.cpuShares()).isEqualTo(1024L);
        assertThat(s.cpuQuotaMicros()).isEqualTo(-1L);
        assertThat(s.cpuPeriodMicros()).isEqualTo(100000L);
    }

    @Test
    void v1WorkingSetNeverGoesBelowZeroAndALimitIsKept() throws IOException {
        write("cpuacct" + ID + "/cpuacct.usage", "1\n");
        write("memory" + ID + "/memory.usage_in_bytes", "100\n");
        write("memory" + ID + "/memory.limit_in_bytes", "67108864\n");
        write("memory" + ID + "/memory.stat", "total_inactive_file 4096\n");

        CgroupSample s = new CgroupV1Reader(root).read(ID).orElseThrow();

        assertThat(s.workingSetBytes()).isZero();
        assertThat(s.memoryLimitBytes()).isEqualTo(67108864L);
        assertThat(s.processCount()).as("no pids controller").isEqualTo(-1L);
    }

    @Test
    void v2ReadsTheUnifiedDirectory() throws IOException {
        String path = "/system.slice/docker-0123abcd.scope";
        write(path + "/cpu.stat", "usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\n");
        write(path + "/memory.current", "52428800\n");
        write(path + "/memory.max", "max\n");
        write(path + "/memory.stat", """
                anon 41943040
                file 10485760
                inactive_file 4194304
                active_file 6291456
                pgfault 900
                pgmajfault 2
                """);
        write(path + "/pids.current", "4\n");
        write(path + "/cpu.max", "50000 100000\n");
        write(path + "/cpu.weight", "100\n");

        CgroupSample s = new CgroupV2Reader(root).read(path).orElseThrow();

        assertThat(s.cpuUsageNanos()).isEqualTo(2_500_000_000L);
        assertThat(s.memoryUsageBytes()).isEqualTo(52428800L);
        assertThat(s.workingSetBytes()).isEqualTo(52428800L - 4194304L);
        assertThat(s.rssBytes()).isEqualTo(41943040L);
        assertThat(s.pageFaults()).isEqualTo(900L);
        assertThat(s.majorPageFaults()).isEqualTo(2L);
        assertThat(s.memoryLimitBytes()).isEqualTo(-1L);
        assertThat(s.processCount()).isEqualTo(4L);
        assertThat(s.cpuQuotaMicros()).isEqualTo(50000L);
        assertThat(s.cpuPeriodMicros()).isEqualTo(100000L);
        // cAdvisor's mapping of [1, 10000] onto [2, 262144]: 2 + (100-1)*262142/9999
        assertThat(s.cpuShares()).isEqualTo(2597L);
    }

    @Test
    void v2WithoutQuotaAndWithALimit() throws IOException {
        write("/a/cpu.stat", "usage_usec 1\n");
        write("/a/memory.current", "10\n");
        write("/a/memory.max", "1048576\n");
        write("/a/cpu.max", "max 100000\n");

        CgroupSample s = new CgroupV2Reader(root).read("/a").orElseThrow();

        assertThat(s.memoryLimitBytes()).isEqualTo(1048576L);
        assertThat(s.cpuQuotaMicros()).isEqualTo(-1L);
        assertThat(s.cpuPeriodMicros()).isEqualTo(100000L);
    }

    @Test
    void aCgroupThatIsGoneReadsAsEmpty() {
        assertThat(new CgroupV1Reader(root).read("/docker/gone")).isEmpty();
        assertThat(new CgroupV2Reader(root).read("/docker/gone")).isEmpty();
    }

    @Test
    void theLayoutIsChosenByTheFileSystemType() throws IOException {
        // A temp dir is no cgroup2 mount, so it is read as v1 (one directory per controller).
        assertThat(CgroupReader.forRoot(root).version()).isEqualTo("v1");
        Path real = CgroupReader.DEFAULT_ROOT;
        if (Files.isDirectory(real)) {
            String type = Files.getFileStore(real).type();
            assertThat(CgroupReader.forRoot(real).version()).isEqualTo("cgroup2".equals(type) ? "v2" : "v1");
        }
    }

    private void write(String relative, String content) throws IOException {
        Path file = root.resolve(relative.startsWith("/") ? relative.substring(1) : relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }
}
