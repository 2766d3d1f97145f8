/**
 * Pod sources and their merging, after the kubelet's {@code pkg/kubelet/config} and
 * {@code pkg/kubelet/types/pod_update.go}.
 *
 * <p>Each source ({@link io.jkubelet.core.config.FileSource static pod files},
 * {@link io.jkubelet.core.config.HttpSource a static pod URL}, the apiserver) sends full
 * {@link io.jkubelet.core.config.PodOperation#SET SET} snapshots of its pods to its own
 * {@link io.jkubelet.core.config.PodConfig#channel(String) channel}; {@link io.jkubelet.core.config.PodConfig}
 * merges them per source and hands the sync loop incremental {@link io.jkubelet.core.config.PodUpdate}s
 * (REMOVE, ADD, UPDATE, DELETE, RECONCILE) in the order the kubelet delivers them.
 *
 * <p>Pods are fabric8 {@link io.fabric8.kubernetes.api.model.Pod}s. They are (de)serialised with
 * Jackson 3 ({@code tools.jackson}), which fabric8 8 is built for: with Jackson 2 a {@code Quantity}
 * or {@code IntOrString} does not bind (see {@link io.jkubelet.core.config.PodCodec}).
 */
package io.jkubelet.core.config;
