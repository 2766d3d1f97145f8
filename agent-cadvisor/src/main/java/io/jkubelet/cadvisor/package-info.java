/**
 * Readers of what the machine records about its containers and itself, as cAdvisor reads them for upstream's
 * kubelet: cgroup v1 and v2 counters, {@code /proc} (CPU, memory, network devices), directory usage and file
 * systems. A module of its own (agent-cadvisor) that depends on no other module of jkubelet: the core (stats,
 * container manager, node status) and the runtime adapters (which read their containers' cgroups) share it by design,
 * and know nothing else of each other than the runtime port.
 */
package io.jkubelet.cadvisor;
