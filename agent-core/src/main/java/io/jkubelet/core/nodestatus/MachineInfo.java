package io.jkubelet.core.nodestatus;

import io.jkubelet.cadvisor.MemInfo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the node status reports about the machine (upstream cAdvisor's {@code MachineInfo} and
 * {@code VersionInfo}): read once at start; only the boot ID and the file system size could change, and
 * neither does while the process runs.
 *
 * @param numCores        logical CPUs
 * @param memoryCapacity  {@code MemTotal} of {@code /proc/meminfo}, bytes
 * @param machineId       {@code /etc/machine-id}, or empty
 * @param systemUuid      {@code /sys/class/dmi/id/product_uuid} when readable (root only), or empty
 * @param bootId          {@code /proc/sys/kernel/random/boot_id}, or empty
 * @param kernelVersion   {@code /proc/sys/kernel/osrelease}
 * @param osImage         {@code PRETTY_NAME} of {@code /etc/os-release}, or "Linux"
 * @param rootFsCapacity  size of the file system holding the kubelet's root directory, bytes (0 when unknown)
 */
public record MachineInfo(int numCores, long memoryCapacity, String machineId, String systemUuid, String bootId,
                          String kernelVersion, String osImage, long rootFsCapacity) {

    /**
     * Reads the machine below {@code hostRoot} ("/" on a real node; a directory of fake files in tests).
     *
     * @param rootDir the kubelet's {@code --root-dir}; its file system gives {@code ephemeral-storage}
     */
    public static MachineInfo read(Path hostRoot, Path rootDir) {
        return new MachineInfo(Runtime.getRuntime().availableProcessors(),
                memoryCapacity(hostRoot.resolve("proc")),
                firstLine(hostRoot.resolve("etc/machine-id")),
                firstLine(hostRoot.resolve("sys/class/dmi/id/product_uuid")),
                firstLine(hostRoot.resolve("proc/sys/kernel/random/boot_id")),
                orElse(firstLine(hostRoot.resolve("proc/sys/kernel/osrelease")), System.getProperty("os.version")),
                orElse(prettyName(hostRoot.resolve("etc/os-release")), "Linux"),
                fsCapacity(rootDir));
    }

    private static long memoryCapacity(Path proc) {
        try {
            return MemInfo.machineMemoryCapacity(proc);
        } catch (IOException e) {
            return 0; // the Ready condition does not mind; capacity still carries the key
        }
    }

    static String prettyName(Path osRelease) {
        try {
            for (String line : Files.readAllLines(osRelease)) {
                if (line.startsWith("PRETTY_NAME=")) {
                    String v = line.substring("PRETTY_NAME=".length()).trim();
                    if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
                        v = v.substring(1, v.length() - 1);
                    }
                    return v;
                }
            }
        } catch (IOException e) {
            // fall through
        }
        return "";
    }

    static String firstLine(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            return lines.isEmpty() ? "" : lines.getFirst().trim();
        } catch (IOException | SecurityException e) {
            return "";
        }
    }

    /** The size of the file system of {@code dir}, or of its nearest existing ancestor (the directory may not exist yet). */
    static long fsCapacity(Path dir) {
        Path p = dir.toAbsolutePath();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        if (p == null) {
            return 0;
        }
        try {
            return Files.getFileStore(p).getTotalSpace();
        } catch (IOException e) {
            return 0;
        }
    }

    private static String orElse(String v, String other) {
        return v == null || v.isEmpty() ? other : v;
    }
}
