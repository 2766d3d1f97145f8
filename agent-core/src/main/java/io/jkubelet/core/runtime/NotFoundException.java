package io.jkubelet.core.runtime;

/** The sandbox, container or image named in a runtime call does not exist. */
public class NotFoundException extends RuntimeException {
    public NotFoundException(String message) {
        super(message);
    }
}
