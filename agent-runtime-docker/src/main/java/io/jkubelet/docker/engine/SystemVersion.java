package io.jkubelet.docker.engine;

import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code GET /version}. */
public record SystemVersion(String version, String apiVersion, @JsonProperty("MinAPIVersion") String minApiVersion,
                            String gitCommit, String os, String arch, String kernelVersion) {}
