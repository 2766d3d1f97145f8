package io.jkubelet.core.config.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The apiserver's name checks ({@code k8s.io/apimachinery/pkg/util/validation}), with its messages.
 * Each method returns what is wrong with the value, empty when it is valid.
 */
public final class NameValidation {

    static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
    static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";

    private static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FMT);
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
    private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);
    private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);
    private static final Pattern PORT_NAME_CHARSET = Pattern.compile("[-a-z0-9]+");
    private static final Pattern PORT_NAME_LETTER = Pattern.compile("[a-z]");

    public static final int DNS1123_LABEL_MAX_LENGTH = 63;
    public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
    private static final int QUALIFIED_NAME_MAX_LENGTH = 63;
    private static final int LABEL_VALUE_MAX_LENGTH = 63;
    private static final int PORT_NAME_MAX_LENGTH = 15;

    private NameValidation() {
    }

    public static List<String> dns1123Label(String value) {
        List<String> errors = new ArrayList<>();
        if (value.length() > DNS1123_LABEL_MAX_LENGTH) {
            errors.add(maxLenError(DNS1123_LABEL_MAX_LENGTH));
        }
        if (!DNS1123_LABEL.matcher(value).matches()) {
            if (DNS1123_SUBDOMAIN.matcher(value).matches()) {
                // A valid subdomain that is not a valid label: the length was checked, so it has dots.
                errors.add("must not contain dots");
            } else {
                errors.add(regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters"
                        + " or '-', and must start and end with an alphanumeric character", DNS1123_LABEL_FMT,
                        "my-name", "123-abc"));
            }
        }
        return errors;
    }

    public static List<String> dns1123Subdomain(String value) {
        List<String> errors = new ArrayList<>();
        if (value.length() > DNS1123_SUBDOMAIN_MAX_LENGTH) {
            errors.add(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            errors.add(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters,"
                    + " '-' or '.', and must start and end with an alphanumeric character", DNS1123_SUBDOMAIN_FMT,
                    "example.com"));
        }
        return errors;
    }

    /** A label key or annotation key: {@code [prefix/]name}. */
    public static List<String> qualifiedName(String value) {
        List<String> errors = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        String nameMessage = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end"
                + " with an alphanumeric character";
        switch (parts.length) {
            case 1 -> name = parts[0];
            case 2 -> {
                String prefix = parts[0];
                name = parts[1];
                if (prefix.isEmpty()) {
                    errors.add("prefix part must be non-empty");
                } else {
                    for (String message : dns1123Subdomain(prefix)) {
                        errors.add("prefix part " + message);
                    }
                }
            }
            default -> {
                errors.add("a qualified name " + regexError(nameMessage, QUALIFIED_NAME_FMT, "MyName", "my.name",
                        "123-abc") + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
                return errors;
            }
        }
        if (name.isEmpty()) {
            errors.add("name part must be non-empty");
        } else if (name.length() > QUALIFIED_NAME_MAX_LENGTH) {
            errors.add("name part " + maxLenError(QUALIFIED_NAME_MAX_LENGTH));
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            errors.add("name part " + regexError(nameMessage, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
        }
        return errors;
    }

    public static List<String> labelValue(String value) {
        List<String> errors = new ArrayList<>();
        if (value.length() > LABEL_VALUE_MAX_LENGTH) {
            errors.add(maxLenError(LABEL_VALUE_MAX_LENGTH));
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errors.add(regexError("a valid label must be an empty string or consist of alphanumeric characters, '-',"
                    + " '_' or '.', and must start and end with an alphanumeric character", LABEL_VALUE_FMT,
                    "MyValue", "my_value", "12345"));
        }
        return errors;
    }

    /** A port name: an IANA service name. */
    public static List<String> portName(String value) {
        List<String> errors = new ArrayList<>();
        if (value.length() > PORT_NAME_MAX_LENGTH) {
            errors.add(maxLenError(PORT_NAME_MAX_LENGTH));
        }
        if (!PORT_NAME_CHARSET.matcher(value).matches()) {
            errors.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
        }
        if (!PORT_NAME_LETTER.matcher(value).find()) {
            errors.add("must contain at least one letter (a-z)");
        }
        if (value.contains("--")) {
            errors.add("must not contain consecutive hyphens (--)");
        }
        if (!value.isEmpty() && (value.charAt(0) == '-' || value.charAt(value.length() - 1) == '-')) {
            errors.add("must not begin or end with a hyphen (-)");
        }
        return errors;
    }

    /** A port number: 1 to 65535. */
    public static List<String> portNumber(int port) {
        return port >= 1 && port <= 65535 ? List.of() : List.of("must be between 1 and 65535, inclusive");
    }

    static String maxLenError(int length) {
        return "must be no more than " + length + " characters";
    }

    static String regexError(String message, String regex, String... examples) {
        StringBuilder out = new StringBuilder(message).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                out.append(" or ");
            }
            out.append('\'').append(examples[i]).append("', ");
        }
        return out.append("regex used for validation is '").append(regex).append("')").toString();
    }
}
