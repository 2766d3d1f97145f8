package io.jkubelet.server.tls;

/** The secure server's TLS settings or files are unusable; the message names the setting or file. */
public final class TlsConfigException extends Exception {

    public TlsConfigException(String message) {
        super(message);
    }

    public TlsConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
