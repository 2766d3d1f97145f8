package io.jkubelet.docker.engine;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** A request path's query, built parameter by parameter; unset (null) values are left out. */
final class Query {
    private final StringBuilder text = new StringBuilder();

    Query add(String name, Object value) {
        if (value != null) {
            text.append(text.isEmpty() ? '?' : '&').append(name).append('=')
                    .append(URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8));
        }
        return this;
    }

    /** {@code filters}: JSON of a map from filter name to its values, as {@code label} to {@code key=value}. */
    Query filters(Map<String, List<String>> filters) {
        return filters == null || filters.isEmpty() ? this : add("filters", new String(EngineJson.write(filters),
                StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
