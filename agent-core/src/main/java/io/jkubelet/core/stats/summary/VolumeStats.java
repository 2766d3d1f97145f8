package io.jkubelet.core.stats.summary;

/** Upstream {@code VolumeStats}: the {@link FsStats} inlined, the volume's name, and its claim if any. */
public record VolumeStats(FsStats fs, String name, PvcReference pvcRef) {}
