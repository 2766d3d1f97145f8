package io.jkubelet.core.cm;

/** A cgroup could not be read, created, changed or removed; the message names the cgroup or its file. */
public final class CgroupException extends Exception {
    public CgroupException(String message) {
        super(message);
    }

    public CgroupException(String message, Throwable cause) {
        super(message, cause);
    }
}
