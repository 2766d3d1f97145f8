package io.jkubelet.server.auth;

/** The authentication or authorization settings cannot be served as asked; the message says why. */
public final class AuthConfigException extends Exception {

    public AuthConfigException(String message) {
        super(message);
    }
}
