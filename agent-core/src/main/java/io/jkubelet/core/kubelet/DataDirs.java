package io.jkubelet.core.kubelet;

import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.HostUtil;
import io.jkubelet.core.volume.util.MountException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Upstream's {@code setupDataDirs}, the part of its {@code initializeModules} that comes first in the kubelet's start:
 * the root directory, made a shared mount, then the pods directory. A failure stops the start as upstream's does: a
 * {@code KubeletSetupFailed} event on the node and {@code Failed to initialize internal modules}.
 */
final class DataDirs {
    /** Upstream's event reason ({@code events.KubeletSetupFailed}) when the kubelet's internal modules cannot start. */
    static final String KUBELET_SETUP_FAILED = "KubeletSetupFailed";

    private DataDirs() {}

    /**
     * @param mounts the host's mounts the root directory is made rshared with; empty: its mount is left as it is
     * @throws IllegalStateException {@code Failed to initialize internal modules: } and upstream's reason
     *     ({@code error creating root directory: ...}, {@code error configuring root directory: ...}, {@code error
     *     creating pods directory: ...}), after the event is recorded
     */
    static void setup(PodDirs dirs, Optional<HostMounts> mounts, EventRecorder recorder, String nodeName) {
        try {
            create(dirs.rootDir(), "error creating root directory");
            if (mounts.isPresent()) {
                makeRShared(mounts.get(), dirs.rootDir());
            }
            create(dirs.podsDir(), "error creating pods directory");
        } catch (IllegalStateException e) {
            recorder.event(References.node(nodeName), EventRecorder.WARNING, KUBELET_SETUP_FAILED, e.getMessage());
            throw new IllegalStateException("Failed to initialize internal modules: " + e.getMessage(), e);
        }
    }

    private static void makeRShared(HostMounts mounts, Path rootDir) {
        try {
            HostUtil.makeRShared(mounts, rootDir);
        } catch (MountException e) {
            throw new IllegalStateException("error configuring root directory: " + e.getMessage(), e);
        }
    }

    private static void create(Path dir, String what) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalStateException(what + ": cannot create " + dir + " (" + e + ")", e);
        }
    }
}
