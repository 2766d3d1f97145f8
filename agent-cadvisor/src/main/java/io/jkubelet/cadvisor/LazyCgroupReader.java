package io.jkubelet.cadvisor;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The {@link CgroupReader} of a hierarchy, found at its first use (a runtime adapter is built before anything reads
 * usage) and kept; when the hierarchy cannot be read, one warning and no usage from then on. Thread-safe.
 */
public final class LazyCgroupReader {
    private static final Logger log = LoggerFactory.getLogger(LazyCgroupReader.class);

    private final Path root;
    private volatile Optional<CgroupReader> reader;

    public LazyCgroupReader(Path root) {
        this.root = root;
    }

    public Optional<CgroupReader> get() {
        Optional<CgroupReader> r = reader;
        if (r == null) {
            try {
                r = Optional.of(CgroupReader.forRoot(root));
                log.info("Reading container usage from cgroup {} hierarchy at {}", r.get().version(), root);
            } catch (IOException e) {
                log.warn("Cannot read cgroups at {}: {}; container CPU and memory usage will be missing", root,
                        e.getMessage());
                r = Optional.empty();
            }
            reader = r;
        }
        return r;
    }
}
