package io.jkubelet.core.volumemanager;

import io.jkubelet.core.volume.BlockVolumeMapper;
import io.jkubelet.core.volume.VolumeMetrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Raw block volumes as the volume manager gives a mapped one to the runtime manager, for tests of what containers get:
 * the pod's link to the device, in a directory of the test's.
 */
public final class MappedBlockVolumes {
    private MappedBlockVolumes() {}

    /** A volume mapped for the pod whose link {@code <dir>/<name>} leads to {@code device} (made here). */
    public static VolumeInfo linked(Path dir, String name, String device, boolean readOnly) throws IOException {
        Files.createSymbolicLink(dir.resolve(name), Path.of(device));
        return VolumeInfo.ofBlock(name, name, mapper(dir, name, device), readOnly, null);
    }

    /** A mapper whose pod device map path is {@code dir}, the link not made. */
    public static BlockVolumeMapper mapper(Path dir, String name, String device) {
        return new BlockVolumeMapper() {
            @Override
            public Path globalMapPath() {
                return dir.resolve("global");
            }

            @Override
            public Path podDeviceMapPath() {
                return dir;
            }

            @Override
            public String volumeMapName() {
                return name;
            }

            @Override
            public VolumeMetrics metrics() {
                return VolumeMetrics.NONE;
            }

            @Override
            public void setUpDevice() {
            }

            @Override
            public Path mapPodDevice() {
                return Path.of(device);
            }
        };
    }
}
