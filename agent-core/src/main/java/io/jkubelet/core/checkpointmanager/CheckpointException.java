package io.jkubelet.core.checkpointmanager;

/**
 * A checkpoint that cannot be used (upstream {@code checkpointmanager/errors}): not there, corrupt, or unreadable. The
 * message is upstream's.
 */
public class CheckpointException extends Exception {
    /** Upstream {@code ErrCheckpointNotFound}. */
    public static final String NOT_FOUND = "checkpoint is not found";
    /** Upstream {@code ErrCorruptCheckpoint}: the data does not match the checksum written with it. */
    public static final String CORRUPT = "checkpoint is corrupted";

    public CheckpointException(String message) {
        super(message);
    }

    public CheckpointException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The checkpoint file does not exist. */
    public static final class NotFound extends CheckpointException {
        public NotFound() {
            super(NOT_FOUND);
        }
    }

    /** The file exists but its data does not match its checksum, or does not parse. */
    public static final class Corrupt extends CheckpointException {
        public Corrupt() {
            super(CORRUPT);
        }

        public Corrupt(Throwable cause) {
            super(CORRUPT, cause);
        }
    }
}
