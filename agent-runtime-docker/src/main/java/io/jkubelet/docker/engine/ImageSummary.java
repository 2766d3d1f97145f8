package io.jkubelet.docker.engine;

import java.util.List;
import java.util.Map;

/** One image of {@code GET /images/json}; {@code created} is in seconds since the epoch. */
public record ImageSummary(String id, String parentId, List<String> repoTags, List<String> repoDigests,
                           Long created, Long size, Map<String, String> labels) {}
