package io.jkubelet.core.objects;

/**
 * An object a pod refers to (ConfigMap, Secret, token) could not be had. {@link #notFound()} says the apiserver
 * answered that it does not exist, which an {@code optional} reference tolerates; anything else (apiserver down,
 * forbidden, standalone node) fails the reference whatever {@code optional} says, as upstream.
 */
public class ObjectException extends Exception {
    private final boolean notFound;

    public ObjectException(String message, boolean notFound) {
        super(message);
        this.notFound = notFound;
    }

    /** Upstream's NotFound message for the kubelet's managers: {@code configmap "x" not found}. */
    public static ObjectException notFound(String kind, String name) {
        return new ObjectException(kind + " \"" + name + "\" not found", true);
    }

    public boolean notFound() {
        return notFound;
    }
}
