package io.jkubelet.core.config.validation;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One thing wrong with one field, printed as the apiserver's {@code field.Error}:
 * {@code spec.containers[0].image: Invalid value: "Nginx": repository name must be lowercase}.
 *
 * @param type     the kind of error
 * @param field    the field's path
 * @param badValue the value that is wrong; printed only for the types that show a value
 * @param detail   what is wrong, or why; may be empty
 */
public record FieldError(Type type, String field, Object badValue, String detail) {

    /** The apiserver's error types, with the words it prints for each. */
    public enum Type {
        NOT_FOUND("Not found", true),
        REQUIRED("Required value", false),
        DUPLICATE("Duplicate value", true),
        INVALID("Invalid value", true),
        NOT_SUPPORTED("Unsupported value", true),
        FORBIDDEN("Forbidden", false),
        TOO_LONG("Too long", false);

        private final String text;
        private final boolean showsValue;

        Type(String text, boolean showsValue) {
            this.text = text;
            this.showsValue = showsValue;
        }

        public String text() {
            return text;
        }
    }

    public static FieldError required(FieldPath field, String detail) {
        return new FieldError(Type.REQUIRED, field.toString(), null, detail);
    }

    public static FieldError invalid(FieldPath field, Object value, String detail) {
        return new FieldError(Type.INVALID, field.toString(), value, detail);
    }

    public static FieldError duplicate(FieldPath field, Object value) {
        return new FieldError(Type.DUPLICATE, field.toString(), value, "");
    }

    public static FieldError notFound(FieldPath field, Object value) {
        return new FieldError(Type.NOT_FOUND, field.toString(), value, "");
    }

    public static FieldError forbidden(FieldPath field, String detail) {
        return new FieldError(Type.FORBIDDEN, field.toString(), null, detail);
    }

    public static FieldError tooLong(FieldPath field, String detail) {
        return new FieldError(Type.TOO_LONG, field.toString(), null, detail);
    }

    public static FieldError notSupported(FieldPath field, Object value, List<String> supported) {
        String detail = supported.stream().map(FieldError::quote).collect(Collectors.joining(", "));
        return new FieldError(Type.NOT_SUPPORTED, field.toString(), value, "supported values: " + detail);
    }

    /** {@code <field>: <type>[: <value>][: <detail>]}. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(field).append(": ").append(type.text);
        if (type.showsValue) {
            out.append(": ").append(badValue instanceof String s ? quote(s) : String.valueOf(badValue));
        }
        if (detail != null && !detail.isEmpty()) {
            out.append(": ").append(detail);
        }
        return out.toString();
    }

    /** Quotes as Go's {@code %q} does for the printable strings that reach here. */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
