package io.jkubelet.cmd;

/**
 * Start-up failed: the message says what and what to do, and is what {@link Main} prints after {@code Error:}; the
 * failure that caused it is kept, so that {@code -v=4} and higher can show where it came from.
 */
final class StartupException extends Exception {

    StartupException(String message) {
        super(message);
    }

    StartupException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * A start-up failure for an exception that was not thrown as one: its own message, or its class name when it has
     * none (never {@code "null"}), with the exception as the cause.
     */
    static StartupException of(Throwable cause) {
        return new StartupException(cause.getMessage() != null ? cause.getMessage() : cause.getClass().getName(), cause);
    }
}
