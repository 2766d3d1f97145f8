package io.jkubelet.core.probe;

import java.util.Objects;

/**
 * The final response of an {@code httpGet} (after the redirects that were followed).
 *
 * @param statusCode the HTTP status code
 * @param body the start of the body, at most {@link HttpProber#MAX_RESP_BODY_LENGTH} bytes, decoded as UTF-8
 * @param url the URL that gave this response
 */
public record HttpGetResponse(int statusCode, String body, String url) {
    public HttpGetResponse {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(url, "url");
    }
}
