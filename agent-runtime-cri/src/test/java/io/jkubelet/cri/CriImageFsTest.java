package io.jkubelet.cri;

import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.cri.v1.CriApi;
import io.jkubelet.cri.v1.ImageServiceGrpc;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The image file system on the real containerd as upstream's CRI stats provider reports it: what the runtime's
 * snapshots use (bytes, inodes) from containerd's {@code ImageFsInfo}, the size and free space of the file system
 * under its mountpoint from this machine.
 */
@Tag("containerd")
class CriImageFsTest {

    /** containerd's own answer, as {@code crictl imagefsinfo} shows it. */
    private static CriApi.FilesystemUsage containerdAnswer() {
        try (CriChannel channel = new CriChannel(CriEndpoint.parse(CriTestSupport.ENDPOINT))) {
            return ImageServiceGrpc.newBlockingStub(channel.channel())
                    .imageFsInfo(CriApi.ImageFsInfoRequest.getDefaultInstance()).getImageFilesystems(0);
        }
    }

    @Test
    void usedBytesAndInodesAreContainerdsSnapshotsAndTheSizeIsTheFileSystemsUnderTheMountpoint() throws Exception {
        try (CriRuntime runtime = CriTestSupport.connect()) {
            // containerd sums its snapshots every 10 s: compare within one of its periods.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                CriApi.FilesystemUsage before = containerdAnswer();
                FilesystemUsage fs = runtime.imageFsInfo();
                CriApi.FilesystemUsage after = containerdAnswer();
                assertThat(before.getUsedBytes().getValue()).isEqualTo(after.getUsedBytes().getValue());
                assertThat(fs.mountpoint()).isEqualTo(after.getFsId().getMountpoint());
                assertThat(fs.usedBytes()).isEqualTo(after.getUsedBytes().getValue());
                assertThat(fs.inodesUsed()).isEqualTo(after.getInodesUsed().getValue());
            });
            FilesystemUsage fs = runtime.imageFsInfo();
            FileStore store = Files.getFileStore(Path.of(fs.mountpoint()));
            assertThat(fs.capacityBytes()).isEqualTo(store.getTotalSpace());
            assertThat(fs.availableBytes()).isBetween(0L, fs.capacityBytes());
            // The images here are a few MiB: far less than everything else on the machine's disk.
            assertThat(fs.usedBytes()).isPositive().isLessThan(store.getTotalSpace() - store.getUnallocatedSpace());
            assertThat(fs.inodes()).isPositive();
            assertThat(fs.inodesFree()).isBetween(0L, fs.inodes());
            assertThat(fs.inodesUsed()).isPositive().isLessThan(fs.inodes() - fs.inodesFree());
        }
    }
}
