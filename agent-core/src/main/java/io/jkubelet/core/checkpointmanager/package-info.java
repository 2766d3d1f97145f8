/**
 * The kubelet's checkpoint files (upstream {@code pkg/kubelet/checkpointmanager}): a directory of named files each written
 * whole or not at all ({@link io.jkubelet.core.checkpointmanager.CheckpointManager}), and the checksum upstream keeps in
 * them ({@link io.jkubelet.core.checkpointmanager.Checksum}: FNV-32a of go-spew's {@code %#v} of the data,
 * {@link io.jkubelet.core.checkpointmanager.GoSpew}), so that a checkpoint written by the upstream kubelet is read here and
 * the other way round.
 */
package io.jkubelet.core.checkpointmanager;
