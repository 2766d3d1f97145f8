package io.jkubelet.core.lifecycle;

/** A lifecycle hook failed; the message is upstream's hook failure message, naming the container and pod. */
public final class HookException extends Exception {
    public HookException(String message, Throwable cause) {
        super(message, cause);
    }

    public HookException(String message) {
        super(message);
    }
}
