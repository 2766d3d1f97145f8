package io.jkubelet.core.volume.util;

/** A mount or unmount command failed; the message is mount-utils' (the command, its arguments and its output). */
public final class MountException extends Exception {
    public MountException(String message) {
        super(message);
    }
}
