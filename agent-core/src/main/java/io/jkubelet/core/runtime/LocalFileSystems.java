package io.jkubelet.core.runtime;

import io.jkubelet.cadvisor.FsUsage;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The size, free space and inodes of the file system holding a directory of this machine, for a runtime adapter's
 * {@code ImageFsInfo}: Docker reports only its data root, and the CRI's answer has no capacity (upstream's kubelet
 * asks cAdvisor for it, as this asks {@link FsUsage}).
 */
public final class LocalFileSystems {
    private LocalFileSystems() {}

    /**
     * The usage of the file system holding {@code dir}; inodes are -1 when {@code stat} cannot tell them.
     *
     * @throws IOException when {@code dir} is not on this machine
     */
    public static FilesystemUsage usage(String dir) throws IOException {
        FsUsage fs = FsUsage.read(Path.of(dir));
        return new FilesystemUsage(dir, fs.capacityBytes(), fs.availableBytes(), fs.usedBytes(), fs.inodes(),
                fs.inodesFree(), fs.inodesUsed());
    }
}
