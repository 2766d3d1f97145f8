package io.jkubelet.docker.engine;

import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code GET /exec/{id}/json}: the exit code is null while the process runs. */
public record ExecInspect(@JsonProperty("ID") String id, Boolean running, Long exitCode, Long pid,
                          @JsonProperty("ContainerID") String containerId) {}
