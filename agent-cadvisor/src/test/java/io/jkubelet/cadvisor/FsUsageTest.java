package io.jkubelet.cadvisor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The file system of a directory on this machine, with its inodes from {@code stat -f}. */
class FsUsageTest {
    @TempDir Path dir;

    @Test
    void aDirectorysFileSystemHasItsSizeAndInodes() throws IOException {
        FsUsage fs = FsUsage.read(dir);

        assertThat(fs.capacityBytes()).isEqualTo(Files.getFileStore(dir).getTotalSpace());
        assertThat(fs.usedBytes()).isBetween(0L, fs.capacityBytes());
        assertThat(fs.inodes()).as("stat -f knows them").isPositive();
        assertThat(fs.inodesUsed()).isEqualTo(fs.inodes() - fs.inodesFree());
    }

    @Test
    void aDirectoryThatIsNotThereIsAnErrorToReadAndUnknownOtherwise() {
        Path missing = dir.resolve("missing");

        assertThatThrownBy(() -> FsUsage.read(missing)).isInstanceOf(IOException.class);
        assertThat(FsUsage.of(missing)).isEqualTo(FsUsage.UNKNOWN);
        assertThat(FsUsage.UNKNOWN.inodesUsed()).isEqualTo(-1L);
    }
}
