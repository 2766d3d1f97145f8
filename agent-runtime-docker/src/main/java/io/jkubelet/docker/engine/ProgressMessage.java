package io.jkubelet.docker.engine;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One message of a pull's progress ({@code POST /images/create}; the Engine API's {@code JSONMessage}). A failed pull
 * still answers 200: its failure comes as a message with {@code error}.
 */
public record ProgressMessage(@JsonProperty("status") String status, @JsonProperty("id") String id,
                              @JsonProperty("progress") String progress, @JsonProperty("error") String error,
                              @JsonProperty("errorDetail") ErrorDetail errorDetail) {

    /** Whether this message ends the pull with a failure. */
    public boolean failed() {
        return error != null || (errorDetail != null && errorDetail.message() != null);
    }

    /** The failure's text, the detail's when there is one. */
    public String failure() {
        return errorDetail != null && errorDetail.message() != null ? errorDetail.message() : error;
    }

    public record ErrorDetail(@JsonProperty("code") Integer code, @JsonProperty("message") String message) {}
}
