package io.jkubelet.docker.engine;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.Map;

/**
 * One container of {@code GET /containers/json}.
 *
 * @param names with Docker's leading slash
 * @param created seconds since the epoch
 * @param state {@code created}, {@code running}, {@code exited}, ...
 */
public record ContainerSummary(String id, List<String> names, String image, @JsonProperty("ImageID") String imageId,
                               String command, Long created, String state, String status,
                               Map<String, String> labels) {}
