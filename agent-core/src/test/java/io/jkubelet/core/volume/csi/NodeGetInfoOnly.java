package io.jkubelet.core.volume.csi;

import io.jkubelet.core.volume.VolumeMetrics;

import java.time.Duration;
import java.util.Set;

/** A driver client for registration tests: only {@code NodeGetInfo} is answered (by the subclass); mounting fails. */
abstract class NodeGetInfoOnly implements CsiDriverClient {
    private static RuntimeException notHere() {
        return new UnsupportedOperationException("registration tests do not mount");
    }

    @Override
    public Set<NodeCapability> nodeGetCapabilities(String endpoint, Duration timeout) throws Exception {
        throw notHere();
    }

    @Override
    public void nodeStageVolume(String endpoint, Duration timeout, NodeStageRequest request) throws Exception {
        throw notHere();
    }

    @Override
    public void nodeUnstageVolume(String endpoint, Duration timeout, String volumeId, String path) throws Exception {
        throw notHere();
    }

    @Override
    public void nodePublishVolume(String endpoint, Duration timeout, NodePublishRequest request) throws Exception {
        throw notHere();
    }

    @Override
    public void nodeUnpublishVolume(String endpoint, Duration timeout, String volumeId, String path) throws Exception {
        throw notHere();
    }

    @Override
    public VolumeMetrics.Metrics nodeGetVolumeStats(String endpoint, Duration timeout, String volumeId, String path)
            throws Exception {
        throw notHere();
    }

    @Override
    public long nodeExpandVolume(String endpoint, Duration timeout, NodeExpandRequest request) throws Exception {
        throw notHere();
    }
}
