package io.jkubelet.docker.engine;

import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code GET /info}: what the adapter needs of the daemon's host. */
public record SystemInfo(@JsonProperty("ID") String id, String name, String dockerRootDir, String driver,
                         String cgroupDriver, String cgroupVersion, String serverVersion, String operatingSystem,
                         String kernelVersion, Long memTotal, @JsonProperty("NCPU") Integer ncpu) {}
