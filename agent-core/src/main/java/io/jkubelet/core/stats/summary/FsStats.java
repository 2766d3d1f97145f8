package io.jkubelet.core.stats.summary;

import java.time.Instant;

/** Upstream {@code FsStats}. */
public record FsStats(Instant time, Long availableBytes, Long capacityBytes, Long usedBytes, Long inodesFree,
                      Long inodes, Long inodesUsed) {}
