package io.jkubelet.core.stats.summary;

/** Upstream {@code RuntimeStats}: the file system holding the runtime's images. */
public record RuntimeStats(FsStats imageFs) {}
