/**
 * The one place that speaks D-Bus (upstream {@code pkg/kubelet/nodeshutdown/systemd}): systemd-logind's Manager
 * (the {@code InhibitDelayMaxUSec} property, {@code Inhibit}, the {@code PrepareForShutdown} signal) and systemd's
 * {@code KillUnit} to make logind reload its drop-in, over dbus-java on the system bus. The core's
 * {@link io.jkubelet.core.nodeshutdown.Inhibitor} port is implemented here by {@link io.jkubelet.cmd.systemd.LogindInhibitor}.
 */
package io.jkubelet.cmd.systemd;
