package io.jkubelet.cri;

/** Nothing answers on the CRI endpoint, or it does not serve CRI v1; the message names the endpoint. */
public class CriUnavailableException extends CriCallException {
    public CriUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
