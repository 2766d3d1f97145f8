package io.jkubelet.core.checkpointmanager;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The checkpoints in one directory (upstream {@code checkpointmanager.NewCheckpointManager} over its file store): each
 * checkpoint is one file named by its key, written to a hidden temporary file beside it, synced and renamed over the
 * old one, so that a reader (or an agent that restarts mid-write) sees the old checkpoint or the new one, never a
 * part. Thread-safe as far as the file system is: two writers of one key leave one of the two.
 */
public final class CheckpointManager {
    /** Upstream's file store hides its temporary files with this prefix; they are not checkpoints. */
    static final String TMP_PREFIX = ".";

    private final Path dir;

    /** @param dir the checkpoint directory; made on the first write when it does not exist */
    public CheckpointManager(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    /** The file of {@code key}. */
    public Path file(String key) {
        return dir.resolve(key);
    }

    /**
     * Writes the checkpoint {@code key} (upstream {@code CreateCheckpoint}).
     *
     * @throws IOException when the directory cannot be made or the file cannot be written; the old checkpoint stays
     */
    public void create(String key, byte[] data) throws IOException {
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, TMP_PREFIX + key, null);
        try {
            try (var channel = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE,
                    java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(java.nio.ByteBuffer.wrap(data));
                channel.force(true);
            }
            try {
                Files.move(tmp, file(key), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file(key), StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Reads the checkpoint {@code key} as written (upstream {@code GetCheckpoint} before its checksum check, which is
     * the checkpoint type's).
     *
     * @throws CheckpointException.NotFound when there is no such checkpoint
     * @throws IOException when it exists but cannot be read
     */
    public byte[] read(String key) throws CheckpointException.NotFound, IOException {
        try {
            return Files.readAllBytes(file(key));
        } catch (NoSuchFileException e) {
            throw new CheckpointException.NotFound();
        }
    }

    /** Removes the checkpoint {@code key}; nothing when there is none (upstream {@code RemoveCheckpoint}). */
    public void remove(String key) throws IOException {
        Files.deleteIfExists(file(key));
    }

    /**
     * The keys of the checkpoints in the directory (upstream {@code ListCheckpoints}): its regular files but the
     * temporary ones; none when the directory does not exist.
     */
    public List<String> list() throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> keys = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(Files::isRegularFile).map(p -> p.getFileName().toString())
                    .filter(name -> !name.startsWith(TMP_PREFIX)).sorted().forEach(keys::add);
        }
        return keys;
    }
}
