package io.jkubelet.core.runtime;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The container runtime's own daemon on this machine, whose cgroup is the node's {@code runtime} system container
 * (upstream's {@code RuntimeCgroupsName}). Each runtime adapter says which process is its runtime's: by the pid file
 * the daemon writes, when it writes one, and by the name of its executable, which is how upstream's container manager
 * finds the daemon when the pid file is missing or names no process ({@code getPidsForProcess}: the pid file, then
 * {@code procfs.PidOf(name)}).
 *
 * @param name    the executable's file name, as {@code /proc/<pid>/cmdline} starts with it (e.g. {@code dockerd})
 * @param pidFile where the daemon writes its pid, if it does by default
 */
public record RuntimeProcess(String name, Optional<Path> pidFile) {

    public RuntimeProcess {
        Objects.requireNonNull(pidFile, "pidFile");
        if (name == null || name.isEmpty() || name.contains("/")) {
            throw new IllegalArgumentException("a runtime process is named by its executable's file name: " + name);
        }
    }

    /** A daemon that writes no pid file: found by name only (upstream's containerd, {@code containerdProcessName}). */
    public static RuntimeProcess named(String name) {
        return new RuntimeProcess(name, Optional.empty());
    }

    /** A daemon that writes {@code pidFile} (upstream's {@code dockerPidFile}), found by name when it names none. */
    public static RuntimeProcess withPidFile(String name, Path pidFile) {
        return new RuntimeProcess(name, Optional.of(pidFile));
    }
}
