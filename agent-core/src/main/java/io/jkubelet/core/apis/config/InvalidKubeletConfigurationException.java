package io.jkubelet.core.apis.config;

import java.util.List;

/**
 * A configuration breaks one or more validation rules. The message is every error, in upstream's
 * aggregate form: the error itself when there is one, {@code [first, second]} when there are several.
 */
public final class InvalidKubeletConfigurationException extends Exception {

    private final List<String> errors;

    public InvalidKubeletConfigurationException(List<String> errors) {
        super(aggregate(errors));
        this.errors = List.copyOf(errors);
    }

    /** Each broken rule, naming its field (and flag, where there is one). */
    public List<String> errors() {
        return errors;
    }

    static String aggregate(List<String> errors) {
        return errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
    }
}
