package io.jkubelet.core.runtime;

import java.time.Instant;

/** The space a container's writable layer takes (CRI {@code FilesystemUsage} of {@code writable_layer}). */
public record WritableLayerUsage(Instant timestamp, long usedBytes, long inodesUsed) {}
