package io.jkubelet.cmd;

/**
 * The command line or the configuration it names cannot be used: unknown flag, bad flag value,
 * unreadable or invalid configuration file, invalid configuration. The message names the input
 * (flag, file, field) and what is wrong; the program prints {@code error: <message>} and exits 1.
 */
public final class FlagsException extends Exception {

    public FlagsException(String message) {
        super(message);
    }

    public FlagsException(String message, Throwable cause) {
        super(message, cause);
    }
}
