package io.jkubelet.core.volume.csi;

import io.jkubelet.core.volume.PodDirs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The names other components derive as the kubelet does: the VolumeAttachment the external attacher marks, the global
 * mount a restarted kubelet finds, the handle of an inline volume (the digests computed apart, with Python's hashlib),
 * and the {@code vol_data.json} upstream's kubelet reads.
 */
class CsiNamesTest {
    @TempDir Path root;

    @Test
    void theVolumeAttachmentIsNamedForTheHandleTheDriverAndTheNode() {
        assertThat(CsiNames.attachmentName("vol-1", "hostpath.csi.k8s.io", "node-a"))
                .isEqualTo("csi-5a70c5de395ccad5e79daeb27c7c4f2634b675e6e1bb2a397999a016143bc9fb");
    }

    @Test
    void aPersistentVolumeIsStagedUnderItsDriverAndTheDigestOfItsHandleAsV130Does() {
        assertThat(CsiNames.deviceMountPath(new PodDirs(Path.of("/var/lib/kubelet")), "hostpath.csi.k8s.io", "vol-1"))
                .isEqualTo(Path.of("/var/lib/kubelet/plugins/kubernetes.io/csi/hostpath.csi.k8s.io/"
                        + "d2e8363faaac7ae76def3b14091d8eb5755f6b92e9531627aeec833a8731cc49/globalmount"));
    }

    @Test
    void anInlineVolumesHandleIsMadeFromItsPodAndName() {
        assertThat(CsiNames.ephemeralVolumeHandle("uid-1", "scratch"))
                .isEqualTo("csi-a919eb5a57ed1bf8c61a802fc713b36e9bfa4fbf009dfb5f4206d253a3a3dc32");
    }

    @Test
    void volumeDataIsAJsonObjectWithSortedKeysAsGosEncoderWritesIt() throws Exception {
        VolumeData.save(root, Map.of("volumeHandle", "vol-1", "driverName", "d", "specVolID", "pv-1"));
        assertThat(Files.readString(root.resolve("vol_data.json")))
                .isEqualTo("{\"driverName\":\"d\",\"specVolID\":\"pv-1\",\"volumeHandle\":\"vol-1\"}\n");
        assertThat(VolumeData.load(root)).containsEntry("volumeHandle", "vol-1").hasSize(3);
    }
}
