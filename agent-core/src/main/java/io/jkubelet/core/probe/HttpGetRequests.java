package io.jkubelet.core.probe;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HTTPHeader;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds the GET of an {@code httpGet} action (upstream {@code NewRequestForHTTPGetAction}), shared by
 * probes ({@code User-Agent: kube-probe/<major>.<minor>}) and lifecycle hooks
 * ({@code kube-lifecycle/<major>.<minor>}).
 *
 * <ul>
 *   <li>{@code scheme} defaults to {@code http}; {@code HTTP}/{@code HTTPS} in any case;</li>
 *   <li>{@code host} defaults to the pod IP;</li>
 *   <li>{@code port} is a number or the name of one of {@code container.ports[]};</li>
 *   <li>{@code path} gets a leading {@code /}; a {@code ?query} in it is kept;</li>
 *   <li>{@code httpHeaders} are sent in order; {@code User-Agent} and {@code Accept: *}{@code /*} are added
 *       unless given; a {@code User-Agent} or {@code Accept} given with an empty value is not sent at all;
 *       a {@code Host} header replaces the {@code Host} of the request.</li>
 * </ul>
 * Immutable and thread-safe.
 */
public final class HttpGetRequests {
    /** Purpose of the request in its {@code User-Agent}: {@code kube-probe/…}. */
    public static final String PROBE = "probe";
    /** Purpose of the request in its {@code User-Agent}: {@code kube-lifecycle/…}. */
    public static final String LIFECYCLE = "lifecycle";

    private static final Pattern MAJOR_MINOR = Pattern.compile("v?(\\d+)\\.(\\d+)(?:[.+-].*)?");

    private final String majorMinor;

    /**
     * @param kubeVersion the Kubernetes version we mirror, {@code "1.30"} or a git version such as
     *     {@code "v1.30.0"}; only major and minor are sent, as upstream does
     */
    public HttpGetRequests(String kubeVersion) {
        this.majorMinor = majorMinor(kubeVersion);
    }

    /** {@code "v1.30.2"} → {@code "1.30"}. */
    public static String majorMinor(String kubeVersion) {
        Matcher m = MAJOR_MINOR.matcher(Objects.requireNonNull(kubeVersion, "kubeVersion").trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("Kubernetes version " + GoFormat.quote(kubeVersion)
                    + " is not of the form <major>.<minor> or v<major>.<minor>.<patch>");
        }
        return m.group(1) + "." + m.group(2);
    }

    /** {@code kube-probe/1.30} or {@code kube-lifecycle/1.30}. */
    public String userAgent(String purpose) {
        return "kube-" + purpose + "/" + majorMinor;
    }

    /** The request of a probe's {@code httpGet} ({@code User-Agent: kube-probe/…}). */
    public HttpGetRequest forProbe(HTTPGetAction action, Container container, String podIp) throws ProbeException {
        return forAction(action, container, podIp, PROBE);
    }

    /**
     * The request of an {@code httpGet} action.
     *
     * @param podIp the default host, or null when the pod has no IP (then the action must name a host)
     * @param purpose {@link #PROBE} or {@link #LIFECYCLE}
     * @throws ProbeException naming the field when the port cannot be resolved, there is no host, or the
     *     scheme is neither HTTP nor HTTPS
     */
    public HttpGetRequest forAction(HTTPGetAction action, Container container, String podIp, String purpose)
            throws ProbeException {
        Objects.requireNonNull(action, "action");
        String scheme = action.getScheme() == null || action.getScheme().isEmpty()
                ? "http" : action.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new ProbeException("httpGet.scheme " + GoFormat.quote(action.getScheme())
                    + " of container " + GoFormat.quote(container.getName()) + " is neither HTTP nor HTTPS");
        }
        String host = action.getHost() == null || action.getHost().isEmpty() ? podIp : action.getHost();
        if (host == null || host.isEmpty()) {
            throw new ProbeException("httpGet of container " + GoFormat.quote(container.getName())
                    + " has no host and the pod has no IP yet");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = ContainerPorts.resolve(action.getPort(), container);

        List<HttpHeader> given = new ArrayList<>();
        if (action.getHttpHeaders() != null) {
            for (HTTPHeader h : action.getHttpHeaders()) {
                given.add(new HttpHeader(canonicalName(h.getName()), h.getValue()));
            }
        }
        // Go sends req.Host = Header.Get("Host"): the first given value, when not empty.
        HttpHeader givenHost = firstValue(given, "Host");
        String hostHeader = givenHost != null && !givenHost.value().isEmpty()
                ? givenHost.value() : GoFormat.joinHostPort(host, port);
        List<HttpHeader> headers = new ArrayList<>();
        if (!has(given, "User-Agent")) {
            headers.add(new HttpHeader("User-Agent", userAgent(purpose)));
        }
        if (!has(given, "Accept")) {
            headers.add(new HttpHeader("Accept", "*/*"));
        }
        for (HttpHeader h : given) {
            if (h.name().equals("Host")) {
                continue;
            }
            // An empty User-Agent or Accept means "do not send one" (upstream deletes Accept; Go's
            // transport writes no User-Agent line for an empty value).
            if (h.value().isEmpty() && (h.name().equals("User-Agent") || h.name().equals("Accept"))) {
                continue;
            }
            headers.add(h);
        }
        return new HttpGetRequest(scheme, host, port, target(action.getPath()), hostHeader, headers);
    }

    private static boolean has(List<HttpHeader> headers, String name) {
        return firstValue(headers, name) != null;
    }

    private static HttpHeader firstValue(List<HttpHeader> headers, String name) {
        for (HttpHeader h : headers) {
            if (h.name().equals(name)) {
                return h;
            }
        }
        return null;
    }

    /**
     * Go's {@code http.Header.Add} canonicalises names ({@code user-agent} → {@code User-Agent}), so a
     * header given in any case overrides ours.
     */
    static String canonicalName(String name) {
        if (name == null) {
            return "";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean token = c > 0x20 && c < 0x7f && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
            if (!token) {
                return name; // Go leaves names with invalid characters as they are
            }
        }
        StringBuilder out = new StringBuilder(name.length());
        boolean upper = true;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            out.append(upper ? Character.toUpperCase(c) : Character.toLowerCase(c));
            upper = c == '-';
        }
        return out.toString();
    }

    /**
     * The request target from {@code path}: a leading {@code /} is added, a {@code #fragment} dropped, and
     * characters that cannot appear in a request line are percent-encoded (as Go's URL does).
     */
    static String target(String path) {
        String p = path == null ? "" : path;
        int hash = p.indexOf('#');
        if (hash >= 0) {
            p = p.substring(0, hash);
        }
        if (!p.startsWith("/")) {
            p = "/" + p;
        }
        StringBuilder out = new StringBuilder(p.length());
        for (byte b : p.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c <= 0x20 || c >= 0x7f || "\"<>\\^`{|}".indexOf(c) >= 0) {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            } else {
                out.append((char) c);
            }
        }
        return out.toString();
    }
}
