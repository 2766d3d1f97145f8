package io.jkubelet.core.config;

import java.util.List;

/**
 * The outcome of decoding a manifest as one kind of object, after the {@code (parsed, value, err)}
 * triple of the kubelet's {@code tryDecodeSinglePod}/{@code tryDecodePodList}.
 *
 * @param <T> what was asked for: a pod or a list of pods
 */
public sealed interface DecodeResult<T> {

    /** The manifest is of the kind asked for, and usable: defaulted and valid. */
    record Decoded<T>(T value) implements DecodeResult<T> {
    }

    /**
     * The manifest is of the kind asked for, but cannot be used.
     *
     * @param errors each {@code <field path>: <what is wrong>}, in field order
     */
    record Invalid<T>(List<String> errors) implements DecodeResult<T> {
        public Invalid {
            errors = List.copyOf(errors);
        }
    }

    /** The manifest could not be read as the kind asked for (bad YAML, another kind, wrong types). */
    record NotParsed<T>(String reason) implements DecodeResult<T> {
    }
}
