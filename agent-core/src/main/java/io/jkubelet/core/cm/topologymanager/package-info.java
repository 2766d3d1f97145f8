/**
 * The topology manager (upstream {@code pkg/kubelet/cm/topologymanager}), the admit handler through which the resource
 * managers allocate a pod's resources, container by container. Only the {@code none} policy with the
 * {@code container} scope is built: every hint provider allocates without NUMA alignment.
 */
package io.jkubelet.core.cm.topologymanager;
