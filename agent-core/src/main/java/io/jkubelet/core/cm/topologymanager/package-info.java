/**
 * The topology manager (upstream {@code pkg/kubelet/cm/topologymanager}, v1.30), the admit handler through which the
 * resource managers allocate a pod's resources: NUMA masks ({@link io.jkubelet.core.cm.topologymanager.BitMask}) and
 * hints, the providers' hints merged across resources ({@code HintMerger}), the {@code none}, {@code best-effort},
 * {@code restricted} and {@code single-numa-node} policies, the {@code container} and {@code pod} scopes, and the store
 * of each admitted container's NUMA affinity that the CPU and device managers allocate from.
 */
package io.jkubelet.core.cm.topologymanager;
