package io.jkubelet.cmd.e2e.apiserver;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One request path of the Kubernetes REST API, taken apart: group, version, namespace, resource, name, subresource. */
record ResourcePath(String group, String version, String namespace, String resource, String name, String subresource,
                    Map<String, String> query) {

    private static final Pattern PATH = Pattern.compile(
            "^/(?:api/(?<core>v1)|apis/(?<group>[^/]+)/(?<version>[^/]+))"
                    + "(?:/namespaces/(?<ns>[^/]+)(?=/))?/(?<resource>[^/]+)(?:/(?<name>[^/]+)(?:/(?<sub>[^/]+))?)?/?$");

    static Optional<ResourcePath> parse(String pathAndQuery) {
        int q = pathAndQuery.indexOf('?');
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        Matcher m = PATH.matcher(path);
        if (!m.matches()) {
            return Optional.empty();
        }
        Map<String, String> query = new LinkedHashMap<>();
        if (q >= 0) {
            for (String pair : pathAndQuery.substring(q + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                query.put(k, v);
            }
        }
        boolean core = m.group("core") != null;
        return Optional.of(new ResourcePath(core ? "" : m.group("group"), core ? "v1" : m.group("version"), m.group("ns"),
                m.group("resource"), m.group("name"), m.group("sub"), query));
    }

    /** A namespace path such as {@code /api/v1/namespaces/default} parses as resource "namespaces", name "default". */
    boolean watch() {
        return "true".equals(query.get("watch")) || "1".equals(query.get("watch"));
    }

    /** The Kubernetes verb, as audit logs and request metrics name it. */
    String verb(String method) {
        return switch (method) {
            case "GET" -> watch() ? "watch" : name == null ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name == null ? "deletecollection" : "delete";
            default -> method.toLowerCase();
        };
    }

    String resourceWithSubresource() {
        return subresource == null ? resource : resource + "/" + subresource;
    }
}
