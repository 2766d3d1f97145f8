/**
 * Container log rotation (upstream {@code pkg/kubelet/logs}): the node's policy ({@code containerLogMaxSize},
 * {@code containerLogMaxFiles}) and the {@link io.jkubelet.core.logs.ContainerLogManager} that keeps logs within
 * it. With Docker the json-file driver rotates, given the policy at container create; see docs/architecture.md.
 */
package io.jkubelet.core.logs;
