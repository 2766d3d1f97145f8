package io.jkubelet.cri;

/** A CRI call the runtime refused or failed; the message names the call, its object and the runtime's reason. */
public class CriCallException extends RuntimeException {
    public CriCallException(String message, Throwable cause) {
        super(message, cause);
    }
}
