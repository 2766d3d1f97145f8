package io.jkubelet.docker.engine;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Map;

/**
 * One message of {@code GET /events} (the Engine API's {@code EventMessage}).
 *
 * @param type {@code container}, {@code image}, ...
 * @param action {@code create}, {@code start}, {@code die}, {@code destroy}, ...
 */
public record EventMessage(@JsonProperty("Type") String type, @JsonProperty("Action") String action,
                           @JsonProperty("Actor") Actor actor, @JsonProperty("time") Long time,
                           @JsonProperty("timeNano") Long timeNano) {

    /** What the event is about: its id and attributes (a container's labels, its name and image). */
    public record Actor(@JsonProperty("ID") String id, @JsonProperty("Attributes") Map<String, String> attributes) {}
}
