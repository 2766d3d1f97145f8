package io.jkubelet.core.volume.util.subpath;

/** A subPath could not be made, bind-mounted or cleaned; the message is upstream's, naming the host paths. */
public final class SubpathException extends Exception {
    public SubpathException(String message) {
        super(message);
    }
}
