package io.jkubelet.docker.engine;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.Map;

/**
 * {@code GET /containers/{id}/json} (the Engine API's {@code ContainerJSON}).
 *
 * @param created RFC 3339 with nanoseconds, as Docker writes it
 * @param name with Docker's leading slash
 */
public record ContainerInspect(String id, String created, String path, List<String> args, ContainerState state,
                               String image, String name, String logPath, Integer restartCount,
                               HostConfig hostConfig, ContainerConfig config, NetworkSettings networkSettings,
                               List<MountPoint> mounts) {

    /** {@code State}; {@code StartedAt}/{@code FinishedAt} are {@code 0001-01-01T00:00:00Z} when it never happened. */
    public record ContainerState(String status, Boolean running, Boolean paused, Boolean restarting,
                                 @JsonProperty("OOMKilled") Boolean oomKilled, Boolean dead, Long pid,
                                 Long exitCode, String error, String startedAt, String finishedAt) {}

    /** {@code NetworkSettings}: the default network's address and every network's endpoint. */
    public record NetworkSettings(@JsonProperty("IPAddress") String ipAddress,
                                  Map<String, EndpointSettings> networks) {}

    /** One network's endpoint of the container. */
    public record EndpointSettings(@JsonProperty("IPAddress") String ipAddress,
                                   @JsonProperty("GlobalIPv6Address") String globalIpv6Address,
                                   @JsonProperty("NetworkID") String networkId) {}

    /** {@code Mounts}: a mount as the daemon made it. */
    public record MountPoint(String type, String source, String destination, String mode,
                             @JsonProperty("RW") Boolean rw, String propagation) {}
}
