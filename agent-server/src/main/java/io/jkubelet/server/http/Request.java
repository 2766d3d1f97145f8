package io.jkubelet.server.http;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP request as a handler sees it: already fully read, immutable, safe to pass between threads.
 *
 * @param method the HTTP method, upper case as sent ({@code GET})
 * @param path the decoded URL path ({@code /pods})
 * @param rawQuery the query string as sent, without {@code ?}; empty when there is none
 * @param query the decoded query parameters, in order; a parameter without value maps to {@code [""]}
 * @param headers the request headers; names are lower case
 * @param body the request body; empty when there is none
 * @param pathParams the values of the route's {@code {name}} segments
 * @param remoteAddress the client's address, or null when unknown
 */
public record Request(
        String method,
        String path,
        String rawQuery,
        Map<String, List<String>> query,
        Map<String, List<String>> headers,
        byte[] body,
        Map<String, String> pathParams,
        InetSocketAddress remoteAddress) {

    /** A copy of the body (the record keeps its own). */
    @Override
    public byte[] body() {
        return body.clone();
    }

    /** Whether the query has {@code name}, with or without a value (Go's {@code Query()[name]} found). */
    public boolean hasQueryParam(String name) {
        return query.containsKey(name);
    }

    /** All values of query parameter {@code name}; empty when absent. */
    public List<String> queryParams(String name) {
        return query.getOrDefault(name, List.of());
    }

    /** The first value of query parameter {@code name}, or null when absent. */
    public String queryParam(String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** The first value of header {@code name} (any case), or null when absent. */
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** The value of path parameter {@code name}, or null when the route has none of that name. */
    public String pathParam(String name) {
        return pathParams.get(name);
    }

    /** This request with {@code params} as its path parameters. */
    Request withPathParams(Map<String, String> params) {
        return new Request(method, path, rawQuery, query, headers, body, Map.copyOf(params), remoteAddress);
    }
}
