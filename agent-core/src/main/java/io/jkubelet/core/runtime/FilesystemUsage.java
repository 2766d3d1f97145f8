package io.jkubelet.core.runtime;

/** Usage of one file system, in bytes and inodes; a value the runtime cannot tell is -1. */
public record FilesystemUsage(String mountpoint, long capacityBytes, long availableBytes, long usedBytes,
                              long inodes, long inodesFree, long inodesUsed) {}
