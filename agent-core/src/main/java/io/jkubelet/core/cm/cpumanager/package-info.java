/**
 * The CPU manager (upstream {@code pkg/kubelet/cm/cpumanager}, v1.30): the machine's topology ({@link
 * io.jkubelet.core.cm.cpumanager.SysfsTopology}), the CPU assignment by topology ({@link
 * io.jkubelet.core.cm.cpumanager.CpuAccumulator}), the {@code static} policy with {@code full-pcpus-only}, its state and
 * the {@code cpu_manager_state} file, and {@link io.jkubelet.core.cm.cpumanager.CpuManager} as a hint provider of the
 * topology manager, with its reconcile loop ({@link io.jkubelet.core.cm.cpumanager.CpuReconciler}). Not done: NUMA
 * hints for the topology manager, the pod-resources API's CPU IDs, the alpha policy options.
 */
package io.jkubelet.core.cm.cpumanager;
