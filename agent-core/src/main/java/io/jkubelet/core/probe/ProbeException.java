package io.jkubelet.core.probe;

/**
 * A probe handler could not run at all (bad port, no host, the runtime refused the exec): upstream's
 * {@code error} return. The prober retries such a run and, if it keeps failing, reports the probe as
 * errored with this message. A probe that ran and found the container unhealthy is not an exception
 * but a {@link ProbeResult#FAILURE} outcome.
 */
public class ProbeException extends Exception {
    public ProbeException(String message) {
        super(message);
    }

    public ProbeException(String message, Throwable cause) {
        super(message, cause);
    }
}
