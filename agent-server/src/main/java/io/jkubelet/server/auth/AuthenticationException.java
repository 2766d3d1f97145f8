package io.jkubelet.server.auth;

/** A request's credential is invalid or cannot be checked; the message says which and why. */
public final class AuthenticationException extends Exception {

    public AuthenticationException(String message) {
        super(message);
    }

    public AuthenticationException(String message, Throwable cause) {
        super(message, cause);
    }
}
