package io.jkubelet.core.apis.config;

import java.nio.file.Path;

/**
 * A configuration file cannot be used: unreadable, not YAML/JSON, wrong kind or apiVersion, unknown
 * field, wrong value type. The message names the file and, where known, the line and field.
 */
public final class KubeletConfigLoadException extends Exception {

    private final Path file;

    public KubeletConfigLoadException(Path file, String detail) {
        super("failed to load kubelet config file, path: " + file + ", error: " + detail);
        this.file = file;
    }

    public Path file() {
        return file;
    }
}
