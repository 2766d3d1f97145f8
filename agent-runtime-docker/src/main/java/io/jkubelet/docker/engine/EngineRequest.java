package io.jkubelet.docker.engine;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One call to the daemon.
 *
 * @param path the path with its query, already with the API version prefix when it has one
 * @param headers extra headers (e.g. {@code X-Registry-Auth}); Host, Content-Type and Content-Length are added
 * @param body the JSON body, or null
 * @param timeout how long each read and write may wait for the daemon; null for streams, which wait for ever
 */
record EngineRequest(String method, String path, Map<String, String> headers, byte[] body, Duration timeout) {

    /** The request as errors name it: method and the API's path, without the version prefix and the query. */
    String call() {
        int query = path.indexOf('?');
        String apiPath = query < 0 ? path : path.substring(0, query);
        return method + " " + VERSION_PREFIX.matcher(apiPath).replaceFirst("");
    }

    private static final Pattern VERSION_PREFIX = Pattern.compile("^/v\\d+\\.\\d+(?=/)");
}
