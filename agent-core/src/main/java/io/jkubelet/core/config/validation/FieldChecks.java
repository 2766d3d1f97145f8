package io.jkubelet.core.config.validation;

import java.util.List;
import java.util.Map;

/** Checks of single fields that the pod and probe validations share, with the apiserver's messages. */
final class FieldChecks {
    private FieldChecks() {}

    static void nonNegative(Integer value, FieldPath path, List<FieldError> errors) {
        if (value != null && value < 0) {
            errors.add(FieldError.invalid(path, value, "must be greater than or equal to 0"));
        }
    }

    static void oneOf(String value, List<String> supported, FieldPath path, List<FieldError> errors) {
        if (value == null || value.isEmpty()) {
            errors.add(FieldError.required(path, ""));
        } else if (!supported.contains(value)) {
            errors.add(FieldError.notSupported(path, value, supported));
        }
    }

    static <K, V> Map<K, V> nullToEmpty(Map<K, V> map) {
        return map == null ? Map.of() : map;
    }

    static <T> List<T> nullToEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
