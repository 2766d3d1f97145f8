package io.jkubelet.docker.engine;

import java.util.List;

/** What a create answers: the new object's id and the daemon's warnings. */
public record IdResponse(String id, List<String> warnings) {}
