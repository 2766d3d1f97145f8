package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.CgroupReader;
import io.jkubelet.core.runtime.RuntimeProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The runtime's daemon is found as upstream's container manager finds it: its pid file, else its name. */
class RuntimeProcessLookupTest {

    @TempDir
    Path dir;

    @Test
    void thePidFileNamesTheDaemonWhileThatProcessRuns() throws IOException {
        Path proc = dir.resolve("proc");
        process(proc, 300, "/usr/bin/dockerd\0-H\0fd://\0");
        process(proc, 200, "dockerd\0");
        Path pidFile = Files.writeString(dir.resolve("docker.pid"), "300\n");
        RuntimeProcessLookup lookup = new RuntimeProcessLookup(RuntimeProcess.withPidFile("dockerd", pidFile), proc);

        assertThat(lookup.get()).as("the pid file's, not the lowest by name").isEqualTo(OptionalLong.of(300));

        Files.writeString(pidFile, "999\n");
        assertThat(lookup.get()).as("a pid file naming no process: by name").isEqualTo(OptionalLong.of(200));
        Files.delete(pidFile);
        assertThat(lookup.get()).as("no pid file (dockerd --pidfile elsewhere): by name").isEqualTo(OptionalLong.of(200));
    }

    @Test
    void byNameTheExecutableIsMatchedAsProcfsPidOfMatchesIt() throws IOException {
        Path proc = dir.resolve("proc");
        process(proc, 10, "");                                            // a kernel thread: no command line
        process(proc, 11, "/usr/bin/containerd-shim-runc-v2\0-namespace\0k8s.io\0");
        process(proc, 12, "/opt/containerd/bin/mycontainerd\0");
        process(proc, 13, "sh\0-c\0containerd\0");
        Files.createDirectories(proc.resolve("self"));
        RuntimeProcessLookup lookup = new RuntimeProcessLookup(RuntimeProcess.named("containerd"), proc);

        assertThat(lookup.get()).as("no containerd runs").isEmpty();

        process(proc, 57, "/usr/bin/containerd --config /etc/containerd/config.toml\0");
        assertThat(lookup.get()).as("the first word of the command line, by path").isEqualTo(OptionalLong.of(57));
    }

    @Test
    void aDaemonFoundByNameIsKeptWhileItRunsAndFoundAgainOnceItIsGone() throws IOException {
        Path proc = dir.resolve("proc");
        process(proc, 40, "containerd\0");
        RuntimeProcessLookup lookup = new RuntimeProcessLookup(RuntimeProcess.named("containerd"), proc);
        assertThat(lookup.get()).isEqualTo(OptionalLong.of(40));

        process(proc, 30, "containerd\0");
        assertThat(lookup.get()).as("kept: the other list is not read again").isEqualTo(OptionalLong.of(40));

        delete(proc.resolve("40"));
        assertThat(lookup.get()).as("restarted under another pid").isEqualTo(OptionalLong.of(30));
    }

    @Test
    void theRuntimeSystemContainerIsTheCgroupOfTheProcessTheAdapterNames() throws IOException {
        Path cgroups = Files.createDirectories(dir.resolve("cgroup"));
        Path proc = dir.resolve("proc");
        String runtimeCgroup = "/system.slice/containerd.service";
        Files.createDirectories(cgroups.resolve("cpuacct" + runtimeCgroup));
        Files.writeString(cgroups.resolve("cpuacct" + runtimeCgroup + "/cpuacct.usage"), "5000\n");
        Files.createDirectories(cgroups.resolve("memory" + runtimeCgroup));
        Files.writeString(cgroups.resolve("memory" + runtimeCgroup + "/memory.usage_in_bytes"), "1000\n");
        Files.writeString(cgroups.resolve("memory" + runtimeCgroup + "/memory.stat"), "total_inactive_file 0\n");
        process(proc, 77, "/usr/bin/containerd\0");
        Files.writeString(proc.resolve("77/cgroup"), "4:memory:" + runtimeCgroup + "\n2:cpu,cpuacct:" + runtimeCgroup
                + "\n");
        CgroupReader reader = CgroupReader.forRoot(cgroups);

        assertThat(SystemContainers.of(reader, proc, Optional.of(RuntimeProcess.named("containerd"))).read())
                .filteredOn(sample -> sample.name().equals(SystemContainers.RUNTIME)).singleElement()
                .satisfies(sample -> assertThat(sample.cgroup()).isNotNull());
        assertThat(SystemContainers.of(reader, proc, Optional.empty()).read())
                .as("a runtime that names no process has no runtime container")
                .noneMatch(sample -> sample.name().equals(SystemContainers.RUNTIME));
    }

    private static void process(Path proc, long pid, String cmdline) throws IOException {
        Path p = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.write(p.resolve("cmdline"), cmdline.getBytes(StandardCharsets.UTF_8));
    }

    private static void delete(Path processDir) throws IOException {
        try (var files = Files.list(processDir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(processDir);
    }
}
