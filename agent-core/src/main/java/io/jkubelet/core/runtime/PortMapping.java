package io.jkubelet.core.runtime;

/**
 * A container port published on the host.
 *
 * @param protocol {@code TCP}, {@code UDP} or {@code SCTP}
 * @param hostIp the host address to bind, or empty for all
 */
public record PortMapping(String protocol, int containerPort, int hostPort, String hostIp) {}
