package io.jkubelet.core.volume;

/**
 * A volume could not be set up; the message names the volume and what is wrong (event {@code FailedMount}). A plain one
 * is upstream's finished error: the operation failed and nothing of it is under way. Two kinds say otherwise
 * ({@link UncertainProgressException}, {@link TransientOperationException}); the operation executor keeps the volume's
 * state by the kind, as upstream's {@code markVolumeErrorState}.
 */
public class VolumeException extends Exception {
    public VolumeException(String message) {
        super(message);
    }

    /** Upstream {@code IsOperationFinishedError}: neither uncertain nor transient. */
    public static boolean isOperationFinished(VolumeException e) {
        return !(e instanceof UncertainProgressException) && !(e instanceof TransientOperationException);
    }
}
