package io.jkubelet.core.volume;

import java.nio.file.Path;

/** Tears down one volume of one pod (upstream {@code volume.Unmounter}). Idempotent. */
public interface Unmounter {
    Path path();

    /**
     * Unmounts what is mounted at {@link #path()} and removes the directory the plugin made there; never removes what
     * another file system holds (a bind-mounted PersistentVolume's data stays where it is).
     *
     * @throws VolumeException with what failed: the volume stays mounted and is tried again
     */
    void tearDown() throws VolumeException;

    /** What tears a volume down. */
    @FunctionalInterface
    interface TearDown {
        void run() throws VolumeException;
    }

    /** An unmounter of {@code path} whose {@link #tearDown()} runs {@code tearDown}. */
    static Unmounter of(Path path, TearDown tearDown) {
        return new Unmounter() {
            @Override
            public Path path() {
                return path;
            }

            @Override
            public void tearDown() throws VolumeException {
                tearDown.run();
            }
        };
    }
}
