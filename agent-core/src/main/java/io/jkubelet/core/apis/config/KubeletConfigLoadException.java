package io.jkubelet.core.apis.config;

import java.nio.file.Path;

/**
 * A configuration file cannot be used: unreadable, not YAML/JSON, wrong kind or apiVersion, unknown
 * field, wrong value type. The message names the file and, where known, the line and field.
 */
public final class KubeletConfigLoadException extends Exception {

    private final Path file;
    private final String detail;

    public KubeletConfigLoadException(Path file, String detail) {
        this(file, detail, "failed to load kubelet config file, path: " + file + ", error: " + detail);
    }

    private KubeletConfigLoadException(Path file, String detail, String message) {
        super(message);
        this.file = file;
        this.detail = detail;
    }

    /**
     * A {@code --config-dir} drop-in that cannot be used, in upstream's words: the directory, then the file and
     * {@code detail}; {@code file} is the directory itself when it cannot be walked.
     */
    static KubeletConfigLoadException dropIn(Path dir, Path file, String detail) {
        String message = "failed to merge kubelet configs: failed to walk through kubelet dropin directory \""
                + dir + "\": " + (file.equals(dir) ? detail
                        : "failed to load kubelet dropin file, path: " + file + ", error: " + detail);
        return new KubeletConfigLoadException(file, detail, message);
    }

    /** What is wrong in the file, without the file's name. */
    public String detail() {
        return detail;
    }

    public Path file() {
        return file;
    }
}
