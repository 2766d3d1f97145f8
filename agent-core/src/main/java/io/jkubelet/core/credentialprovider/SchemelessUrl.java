package io.jkubelet.core.credentialprovider;

import io.jkubelet.core.config.validation.FieldError;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A registry location without scheme ({@code registry.example.com:5000/team}), read as upstream's
 * {@code ParseSchemelessURL} reads it: Go's {@code net/url.Parse} of {@code "https://" + location}. Only what the
 * keyring and {@code matchImages} need is kept: the host (with its port) and the decoded path; the query and the
 * fragment are dropped. What Go refuses is refused with Go's words, which upstream's validation of
 * {@code matchImages} shows ({@code parse "https://a b": invalid character " " in host name}).
 *
 * @param host the host and port as the URL has them ({@code *.example.com}, {@code 127.0.0.1:5000}, {@code [::1]:5000})
 * @param path the decoded path, {@code ""} when there is none
 */
public record SchemelessUrl(String host, String path) {

    /** Go's {@code url.Parse} refused the location; the message is Go's. */
    public static final class InvalidUrlException extends Exception {
        InvalidUrlException(String message) {
            super(message);
        }
    }

    /** {@code ParseSchemelessURL}. */
    public static SchemelessUrl parse(String schemeless) throws InvalidUrlException {
        return parseUrl("https://" + schemeless);
    }

    /** Go's {@code url.Parse} of a URL whose scheme is {@code http} or {@code https}, as the keyring gives it. */
    static SchemelessUrl parseUrl(String raw) throws InvalidUrlException {
        int hash = raw.indexOf('#');
        String url = hash < 0 ? raw : raw.substring(0, hash);
        try {
            SchemelessUrl parsed = parseWithoutFragment(url);
            if (hash >= 0) {
                try {
                    unescape(raw.substring(hash + 1), false);
                } catch (IllegalArgumentException e) {
                    throw new FragmentError(e.getMessage());
                }
            }
            return parsed;
        } catch (IllegalArgumentException e) {
            // Go names the URL without its fragment, unless the fragment itself is what is wrong.
            String named = e instanceof FragmentError ? raw : url;
            throw new InvalidUrlException("parse " + FieldError.quote(named) + ": " + e.getMessage());
        }
    }

    private static final class FragmentError extends IllegalArgumentException {
        FragmentError(String message) {
            super(message);
        }
    }

    private static SchemelessUrl parseWithoutFragment(String url) {
        for (int i = 0; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new IllegalArgumentException("net/url: invalid control character in URL");
            }
        }
        String rest = url.substring(url.indexOf("://") + 1);
        int query = rest.indexOf('?');
        if (query >= 0) {
            rest = rest.substring(0, query);
        }
        // rest is "//authority/path"
        int slash = rest.indexOf('/', 2);
        String authority = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
        String path = slash < 0 ? "" : rest.substring(slash);
        int at = authority.lastIndexOf('@');
        if (at >= 0) {
            checkUserinfo(authority.substring(0, at));
            authority = authority.substring(at + 1);
        }
        return new SchemelessUrl(host(authority), unescape(path, false));
    }

    private static void checkUserinfo(String userinfo) {
        for (int i = 0; i < userinfo.length(); i++) {
            char c = userinfo.charAt(i);
            boolean valid = Character.isLetterOrDigit(c) && c < 0x80 || "-._:~!$&'()*+,;=%@".indexOf(c) >= 0;
            if (!valid) {
                throw new IllegalArgumentException("net/url: invalid userinfo");
            }
        }
        unescape(userinfo, false);
    }

    /** Go's {@code parseHost}: a bracketed IPv6 literal or a name, then an optional {@code :digits} port. */
    private static String host(String host) {
        if (host.startsWith("[")) {
            int close = host.lastIndexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("missing ']' in host");
            }
            String colonPort = host.substring(close + 1);
            if (!validOptionalPort(colonPort)) {
                throw new IllegalArgumentException("invalid port " + FieldError.quote(colonPort) + " after host");
            }
            return unescape(host, true);
        }
        int colon = host.lastIndexOf(':');
        if (colon >= 0) {
            String colonPort = host.substring(colon);
            if (!validOptionalPort(colonPort)) {
                throw new IllegalArgumentException("invalid port " + FieldError.quote(colonPort) + " after host");
            }
        }
        return unescape(host, true);
    }

    private static boolean validOptionalPort(String port) {
        if (port.isEmpty()) {
            return true;
        }
        if (port.charAt(0) != ':') {
            return false;
        }
        for (int i = 1; i < port.length(); i++) {
            if (port.charAt(i) < '0' || port.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * Go's {@code unescape}: {@code %XX} decoded; a broken escape refused; in a host, only the characters RFC 3986
     * allows there (with {@code :}, brackets and a few more, as Go does) and escapes of non-ASCII bytes or {@code %25}.
     */
    private static String unescape(String s, boolean hostMode) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length() || hex(s.charAt(i + 1)) < 0 || hex(s.charAt(i + 2)) < 0) {
                    String bad = s.substring(i, Math.min(s.length(), i + 3));
                    throw new IllegalArgumentException("invalid URL escape " + FieldError.quote(bad));
                }
                if (hostMode && hex(s.charAt(i + 1)) < 8 && !s.startsWith("%25", i)) {
                    throw new IllegalArgumentException("invalid URL escape " + FieldError.quote(s.substring(i, i + 3)));
                }
                out.write(hex(s.charAt(i + 1)) * 16 + hex(s.charAt(i + 2)));
                i += 3;
                continue;
            }
            if (hostMode && c < 0x80 && !allowedInHost(c)) {
                throw new IllegalArgumentException("invalid character " + FieldError.quote(String.valueOf(c)) + " in host name");
            }
            int cp = s.codePointAt(i);
            out.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
            i += Character.charCount(cp);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Go's {@code shouldEscape(c, encodeHost)} is false: letters, digits, unreserved marks, sub-delims and more. */
    private static boolean allowedInHost(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || "-_.~!$&'()*+,;=:[]<>\"".indexOf(c) >= 0;
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }

    /** The host's dot-separated labels, without the port (upstream {@code SplitURL}). */
    public List<String> hostLabels() {
        return List.of(splitHostPort()[0].split("\\.", -1));
    }

    /** The port, {@code ""} when none (upstream {@code SplitURL}). */
    public String port() {
        return splitHostPort()[1];
    }

    /** Go's {@code net.SplitHostPort}; when it fails, the whole host with no port, as upstream's {@code SplitURL}. */
    private String[] splitHostPort() {
        String[] whole = {host, ""};
        int colon = host.lastIndexOf(':');
        if (colon < 0) {
            return whole;
        }
        String name;
        int from = 0;
        int after = 0;
        if (host.startsWith("[")) {
            int close = host.indexOf(']');
            if (close < 0 || close + 1 != colon) {
                return whole;
            }
            name = host.substring(1, close);
            from = 1;
            after = close + 1;
        } else {
            name = host.substring(0, colon);
            if (name.indexOf(':') >= 0) {
                return whole;
            }
        }
        if (host.indexOf('[', from) >= 0 || host.indexOf(']', after) >= 0) {
            return whole;
        }
        return new String[] {name, host.substring(colon + 1)};
    }
}
