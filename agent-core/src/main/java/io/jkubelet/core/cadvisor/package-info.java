/**
 * Readers of what the machine records about its containers and itself, as cAdvisor reads them for upstream's
 * kubelet: cgroup v1 and v2 counters, {@code /proc} (CPU, memory, network devices), directory usage and file
 * systems. Shared by the stats provider and the runtime adapters, which know nothing else of each other.
 */
package io.jkubelet.core.cadvisor;
