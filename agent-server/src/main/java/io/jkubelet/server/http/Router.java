package io.jkubelet.server.http;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Maps (method, path) to a {@link Handler}, with the answers Go's kubelet gives when nothing matches.
 *
 * <p>The kubelet serves through a go-restful container on top of Go's {@code http.ServeMux}; the two
 * kinds of registration here mirror them:
 *
 * <ul>
 *   <li>{@link Builder#any(String, Handler)} is a {@code ServeMux.Handle}: every method is accepted; a
 *       pattern ending in {@code /} is a subtree that matches every path below it, and its root without
 *       the slash is redirected to it (301).
 *   <li>{@link Builder#route(String, String, Handler)} is a go-restful route: one method; segments may be
 *       literals, {@code {name}} (one non-empty segment) or a final {@code {name:*}} (the rest of the
 *       path). A path that matches a route's pattern but not its method gets {@code 405: Method Not
 *       Allowed} with an {@code Allow} header; a path below a route's literal root that matches no route
 *       gets {@code 404: Page Not Found}.
 * </ul>
 *
 * Any other path gets Go's {@code 404 page not found}. When several patterns match, an exact pattern
 * beats a subtree; among exact patterns the one with more literal characters wins (then fewer
 * parameters); among subtrees the longest wins.
 *
 * <p>A router is immutable and thread-safe; build it with {@link #builder()}.
 */
public final class Router {

    /** The outcome of {@link #match}. */
    public sealed interface Match permits Found, MethodNotAllowed, Redirect, NotFound {}

    /** A handler for the request, with the values of its path parameters. */
    public record Found(Handler handler, Map<String, String> pathParams, String pattern) implements Match {}

    /** The path exists but not for this method; {@code allowed} lists the methods that it has. */
    public record MethodNotAllowed(List<String> allowed) implements Match {}

    /** The path names a subtree's root without its trailing slash; answer 301 to {@code location}. */
    public record Redirect(String location) implements Match {}

    /**
     * Nothing matches. {@code restful} tells which Go layer would have answered: go-restful's {@code 404:
     * Page Not Found} below a route's root, else ServeMux's {@code 404 page not found}.
     */
    public record NotFound(boolean restful) implements Match {}

    private record Route(String method, PathPattern pattern, Handler handler) {
        boolean allows(String requestMethod) {
            return method == null || method.equals(requestMethod);
        }
    }

    private final List<Route> routes;
    private final Set<String> restfulRoots;

    private Router(List<Route> routes) {
        this.routes = List.copyOf(routes);
        Set<String> roots = new LinkedHashSet<>();
        for (Route r : routes) {
            if (r.method() != null) {
                roots.add(r.pattern().literalRoot());
            }
        }
        this.restfulRoots = Set.copyOf(roots);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Finds what answers {@code method} on the decoded {@code path}. */
    public Match match(String method, String path) {
        PathPattern best = null;
        Map<String, String> bestParams = null;
        for (Route route : routes) {
            Map<String, String> params = route.pattern().match(path);
            if (params != null && (best == null || route.pattern().beats(best))) {
                best = route.pattern();
                bestParams = params;
            }
        }
        if (best == null) {
            if (!path.endsWith("/")) {
                for (Route route : routes) {
                    if (route.pattern().subtree() && route.pattern().text().equals(path + "/")) {
                        return new Redirect(path + "/");
                    }
                }
            }
            for (String root : restfulRoots) {
                if (path.startsWith(root + "/")) {
                    return new NotFound(true);
                }
            }
            return new NotFound(false);
        }
        List<String> allowed = new ArrayList<>();
        for (Route route : routes) {
            if (route.pattern().text().equals(best.text())) {
                if (route.allows(method)) {
                    return new Found(route.handler(), bestParams, best.text());
                }
                if (!allowed.contains(route.method())) {
                    allowed.add(route.method());
                }
            }
        }
        return new MethodNotAllowed(List.copyOf(allowed));
    }

    /** Collects routes; not thread-safe, use from one thread, then {@link #build()}. */
    public static final class Builder {
        private final List<Route> routes = new ArrayList<>();

        private Builder() {}

        /** Like {@code ServeMux.Handle}: {@code handler} answers every method on {@code pattern}. */
        public Builder any(String pattern, Handler handler) {
            return add(null, pattern, handler);
        }

        /** Like a go-restful route: {@code handler} answers {@code method} on {@code pattern}. */
        public Builder route(String method, String pattern, Handler handler) {
            if (method == null || method.isBlank()) {
                throw new IllegalArgumentException("route " + pattern + ": method is empty");
            }
            return add(method.toUpperCase(Locale.ROOT), pattern, handler);
        }

        /** {@code route("GET", pattern, handler)}. */
        public Builder get(String pattern, Handler handler) {
            return route("GET", pattern, handler);
        }

        private Builder add(String method, String pattern, Handler handler) {
            if (handler == null) {
                throw new IllegalArgumentException("route " + pattern + ": handler is null");
            }
            PathPattern parsed = PathPattern.parse(pattern);
            for (Route r : routes) {
                if (r.pattern().text().equals(parsed.text())
                        && (r.method() == null || method == null || r.method().equals(method))) {
                    throw new IllegalArgumentException(
                            "route " + (method == null ? "*" : method) + " " + pattern + " is already registered");
                }
            }
            routes.add(new Route(method, parsed, handler));
            return this;
        }

        public Router build() {
            return new Router(routes);
        }
    }

    /** A parsed pattern; see {@link Router} for the syntax. */
    record PathPattern(String text, List<String> segments, boolean subtree, boolean tail, int literalChars, int params) {

        static PathPattern parse(String text) {
            if (text == null || !text.startsWith("/")) {
                throw new IllegalArgumentException("path pattern must start with '/': " + text);
            }
            boolean subtree = text.endsWith("/");
            String body = subtree ? text.substring(1, text.length() - 1) : text.substring(1);
            List<String> segments = body.isEmpty() ? List.of() : List.of(body.split("/", -1));
            int literal = 0;
            int params = 0;
            boolean tail = false;
            for (int i = 0; i < segments.size(); i++) {
                String s = segments.get(i);
                if (s.startsWith("{") && s.endsWith("}")) {
                    if (subtree) {
                        throw new IllegalArgumentException("a subtree pattern takes no parameters: " + text);
                    }
                    String name = s.substring(1, s.length() - 1);
                    if (name.endsWith(":*")) {
                        if (i != segments.size() - 1) {
                            throw new IllegalArgumentException("{name:*} must be the last segment: " + text);
                        }
                        tail = true;
                        name = name.substring(0, name.length() - 2);
                    }
                    if (name.isEmpty() || name.contains("{") || name.contains("}") || name.contains(":")) {
                        throw new IllegalArgumentException("bad parameter segment '" + s + "' in " + text);
                    }
                    params++;
                } else if (s.isEmpty() || s.contains("{") || s.contains("}")) {
                    throw new IllegalArgumentException("bad segment '" + s + "' in " + text);
                } else {
                    literal += s.length();
                }
            }
            return new PathPattern(text, segments, subtree, tail, literal, params);
        }

        /** The path parameters when {@code path} matches, else null. */
        Map<String, String> match(String path) {
            if (subtree) {
                return path.startsWith(text) ? Map.of() : null;
            }
            if (!path.startsWith("/")) {
                return null;
            }
            String[] parts = path.substring(1).split("/", -1);
            if (path.equals("/")) {
                parts = new String[0];
            }
            int fixed = tail ? segments.size() - 1 : segments.size();
            if (tail ? parts.length < fixed : parts.length != fixed) {
                return null;
            }
            Map<String, String> params = new LinkedHashMap<>();
            for (int i = 0; i < fixed; i++) {
                String seg = segments.get(i);
                if (seg.startsWith("{")) {
                    if (parts[i].isEmpty()) {
                        return null;
                    }
                    params.put(seg.substring(1, seg.length() - 1), parts[i]);
                } else if (!seg.equals(parts[i])) {
                    return null;
                }
            }
            if (tail) {
                String last = segments.get(segments.size() - 1);
                String name = last.substring(1, last.length() - 3);
                params.put(name, String.join("/", Arrays.asList(parts).subList(fixed, parts.length)));
            }
            return params;
        }

        /** Whether this pattern wins over {@code other} when both match a path. */
        boolean beats(PathPattern other) {
            if (subtree != other.subtree) {
                return !subtree;
            }
            if (subtree) {
                return text.length() > other.text.length();
            }
            if (literalChars != other.literalChars) {
                return literalChars > other.literalChars;
            }
            return params < other.params;
        }

        /** The literal prefix before the first parameter, at least the first segment: go-restful's root. */
        String literalRoot() {
            StringBuilder root = new StringBuilder();
            for (String s : segments) {
                if (s.startsWith("{")) {
                    break;
                }
                root.append('/').append(s);
            }
            return root.isEmpty() ? "/" : root.toString();
        }
    }
}
