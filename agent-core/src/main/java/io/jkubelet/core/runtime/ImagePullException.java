package io.jkubelet.core.runtime;

/** A pull failed; the message is the registry's or runtime's own, shown to users in pod status. */
public class ImagePullException extends RuntimeException {
    public ImagePullException(String message, Throwable cause) {
        super(message, cause);
    }
}
