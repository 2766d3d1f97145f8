package io.jkubelet.core.runtime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The size, free space and inodes of the file system holding a directory of this machine, for a runtime adapter's
 * {@code ImageFsInfo}: Docker reports only its data root, and the CRI's answer has no capacity (upstream's kubelet
 * asks cAdvisor for it).
 */
public final class LocalFileSystems {
    private static final Logger log = LoggerFactory.getLogger(LocalFileSystems.class);

    private LocalFileSystems() {}

    /**
     * The usage of the file system holding {@code dir}; inodes are -1 when {@code stat} cannot tell them.
     *
     * @throws IOException when {@code dir} is not on this machine
     */
    public static FilesystemUsage usage(String dir) throws IOException {
        FileStore store = Files.getFileStore(Path.of(dir));
        long capacity = store.getTotalSpace();
        long available = store.getUsableSpace();
        long used = capacity - store.getUnallocatedSpace();
        long[] inodes = inodes(dir);
        return new FilesystemUsage(dir, capacity, available, used, inodes[0], inodes[1],
                inodes[0] < 0 ? -1 : inodes[0] - inodes[1]);
    }

    /** Total and free inodes of the file system of {@code dir}, or -1s when {@code stat} cannot tell. */
    private static long[] inodes(String dir) {
        try {
            Process p = new ProcessBuilder("stat", "-f", "-c", "%c %d", dir).redirectErrorStream(true).start();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new long[] {-1, -1};
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            String[] parts = out.split("\\s+");
            if (p.exitValue() != 0 || parts.length != 2) {
                return new long[] {-1, -1};
            }
            return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
        } catch (IOException | NumberFormatException e) {
            log.debug("Cannot read the inodes of {}: {}", dir, e.toString());
            return new long[] {-1, -1};
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new long[] {-1, -1};
        }
    }
}
