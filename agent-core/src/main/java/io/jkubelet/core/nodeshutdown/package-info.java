/**
 * Graceful node shutdown (upstream {@code pkg/kubelet/nodeshutdown}): a delay inhibitor lock held with systemd-logind,
 * and on logind's {@code PrepareForShutdown(true)} the node's pods killed group by group, lowest priority first, each
 * group within its share of the grace period, before the lock is released. Logind is reached through the
 * {@link io.jkubelet.core.nodeshutdown.Inhibitor} port; its D-Bus adapter lives in agent-cmd ({@code cmd.systemd}).
 */
package io.jkubelet.core.nodeshutdown;
