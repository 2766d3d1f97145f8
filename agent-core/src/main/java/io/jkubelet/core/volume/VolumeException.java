package io.jkubelet.core.volume;

/** A volume could not be set up; the message names the volume and what is wrong (event {@code FailedMount}). */
public class VolumeException extends Exception {
    public VolumeException(String message) {
        super(message);
    }
}
