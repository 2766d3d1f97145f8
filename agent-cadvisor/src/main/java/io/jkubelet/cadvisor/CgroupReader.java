package io.jkubelet.cadvisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads a cgroup's counters from the cgroup file system, as cAdvisor does for the kubelet. One
 * implementation per hierarchy layout; {@link #forRoot} picks the layout the mounted file system has.
 * Stateless and thread-safe.
 */
public sealed interface CgroupReader permits CgroupV1Reader, CgroupV2Reader {

    /** The file system type of a cgroup v2 (unified) mount, as {@code stat -f -c %T} shows it. */
    String CGROUP2_FS_TYPE = "cgroup2";

    /** The conventional mount point of the cgroup file system. */
    Path DEFAULT_ROOT = Path.of("/sys/fs/cgroup");

    /**
     * The counters of the cgroup at {@code cgroupPath} (e.g. {@code /docker/<id>}), or empty when the
     * cgroup does not exist (its container just stopped).
     */
    Optional<CgroupSample> read(String cgroupPath);

    /** Which layout this reader reads: {@code v1} or {@code v2}. */
    String version();

    /**
     * The reader for the hierarchy mounted at {@code root}: v2 when {@code root} is a {@code cgroup2} file
     * system (the unified hierarchy), else v1 with one directory per controller under {@code root}.
     */
    static CgroupReader forRoot(Path root) throws IOException {
        String type = Files.getFileStore(root).type();
        return CGROUP2_FS_TYPE.equals(type) ? new CgroupV2Reader(root) : new CgroupV1Reader(root);
    }
}
