/**
 * The container manager (upstream {@code pkg/kubelet/cm}): the {@code kubepods} cgroup that holds every pod
 * (node allocatable), the {@code burstable} and {@code besteffort} QoS cgroups below it, one {@code pod<uid>}
 * cgroup per pod with the CPU, memory and PID limits its containers add up to, and the reservations taken off the
 * node's capacity. Cgroups are written through a {@link io.jkubelet.core.cm.CgroupManager} with cgroupfs or systemd
 * naming, on cgroup v1 or v2.
 */
package io.jkubelet.core.cm;
