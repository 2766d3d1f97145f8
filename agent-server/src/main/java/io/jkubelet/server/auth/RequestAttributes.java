package io.jkubelet.server.auth;

import io.jkubelet.server.http.Request;

/**
 * What the kubelet asks its authorizer about a request (upstream {@code GetRequestAttributes}): the verb
 * from the HTTP method, resource {@code nodes} named after this node in API version v1, and subresource
 * {@code stats}, {@code metrics}, {@code log}, {@code checkpoint} for those path trees, else {@code proxy}; the
 * dashboard's tree ({@code /dashboard/}) is {@code stats} too.
 */
public record RequestAttributes(UserInfo user, String verb, String resource, String subresource, String name,
        String apiVersion, String path) {

    public static RequestAttributes of(UserInfo user, Request request, String nodeName) {
        return new RequestAttributes(user, verb(request.method()), "nodes", subresource(request.path()), nodeName, "v1",
                request.path());
    }

    static String verb(String method) {
        return switch (method) {
            case "POST" -> "create";
            case "GET" -> "get";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> "delete";
            // Upstream leaves the verb empty for other methods (HEAD, OPTIONS).
            default -> "";
        };
    }

    static String subresource(String path) {
        // jkubelet's dashboard shows what the stats show (it reads them), so it asks for the same permission.
        if (isSubpath(path, "/stats") || isSubpath(path, "/dashboard")) {
            return "stats";
        }
        if (isSubpath(path, "/metrics")) {
            return "metrics";
        }
        if (isSubpath(path, "/logs")) {
            return "log";
        }
        if (isSubpath(path, "/checkpoint")) {
            return "checkpoint";
        }
        return "proxy";
    }

    /** Upstream's {@code isSubpath}: the path itself or anything under it. */
    private static boolean isSubpath(String subpath, String path) {
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return subpath.equals(trimmed) || subpath.startsWith(trimmed + "/");
    }
}
