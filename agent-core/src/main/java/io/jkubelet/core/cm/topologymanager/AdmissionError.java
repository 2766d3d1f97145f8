package io.jkubelet.core.cm.topologymanager;

/**
 * An allocation failure with a reason of its own (upstream's {@code admission.Error}: {@code Type()} and
 * {@code Error()}): the pod is refused with that reason and the message as it is, instead of
 * {@code UnexpectedAdmissionError} and "Allocate failed due to ..., which is unexpected".
 */
public class AdmissionError extends Exception {
    private final String type;

    public AdmissionError(String type, String message) {
        super(message);
        this.type = type;
    }

    /** The pod's rejection reason. */
    public String type() {
        return type;
    }
}
