package io.jkubelet.server.logs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;

/**
 * The files of one container log, oldest first, opened together. Docker's json-file driver rotates a log by
 * deleting the oldest kept file, renaming {@code <id>-json.log.<n>} to {@code .<n+1>} from the highest down, the
 * live file to {@code .1}, and starting a new live file; so the higher the number, the older the file. (Upstream's
 * CRI rotation names files {@code <n>.log.<timestamp>} instead; such files are not read here.)
 *
 * <p>A rotation can happen while the files are opened, so they are opened as a snapshot: the live file first, then
 * the rotated ones, each only if its name showed the same file (device and inode) just before and just after it
 * was opened, and the whole only if the live file is still live at the end. Holding the live file open keeps its
 * inode from being given to a later file, so "still live" cannot be fooled by inode reuse, which file systems do
 * at once for the files a rotation deletes; and while no rotation replaced the live file, the rotated files opened
 * are the ones before it, in order. Otherwise the snapshot is taken again. Not thread-safe.
 */
final class RotatedLogFiles {
    /**
     * How often a snapshot is tried, a millisecond apart, before the live file is read alone (what upstream reads):
     * a rotation leaves the files inconsistent for microseconds, and a log rotates at most every few milliseconds.
     */
    private static final int ATTEMPTS = 50;

    /** One open file of the log and its identity; the channel is the caller's to close. */
    record LogFile(Path path, Object key, FileChannel channel) {}

    private RotatedLogFiles() {}

    /**
     * Opens the rotated files of the log whose live file is {@code live}, oldest first, and the live file last.
     *
     * @throws IOException when the live file cannot be opened
     */
    static List<LogFile> open(Path live) throws IOException {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            if (attempt > 1) {
                pause();
            }
            List<LogFile> files = snapshot(live);
            if (files != null) {
                return files;
            }
        }
        FileChannel channel = FileChannel.open(live, StandardOpenOption.READ);
        return new ArrayList<>(List.of(new LogFile(live, key(live), channel)));
    }

    /**
     * The files of the log written after the one whose identity is {@code key} (a file the caller holds open, so
     * that no other file can have its identity), oldest first, the live one last: all of them when that file is no
     * longer there (it was the oldest and has been deleted).
     */
    static List<LogFile> openNewerThan(Path live, Object key) throws IOException {
        List<LogFile> all = open(live);
        int at = -1;
        for (int i = 0; i < all.size(); i++) {
            if (Objects.equals(all.get(i).key(), key)) {
                at = i;
            }
        }
        closeAll(all.subList(0, at + 1));
        return new ArrayList<>(all.subList(at + 1, all.size()));
    }

    /**
     * {@code path} with every link resolved ({@link Path#toRealPath}), looked for again a few times while it is
     * missing: a rotation renames the live file before it creates the next one.
     */
    static Path resolve(Path path) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return path.toRealPath();
            } catch (NoSuchFileException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
                pause();
            }
        }
    }

    /** The device and inode of the file at {@code path} (not following a link), or null when there is none. */
    static Object key(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    static void closeAll(List<LogFile> files) {
        for (LogFile f : files) {
            try {
                f.channel().close();
            } catch (IOException ignored) {
                // Read-only channel; nothing was written that closing could lose.
            }
        }
    }

    /** A consistent set of the log's files, oldest first; null when a rotation got in the way. */
    private static List<LogFile> snapshot(Path live) throws IOException {
        LogFile current = openSteady(live);
        if (current == null) {
            return null;
        }
        List<LogFile> files = new ArrayList<>();
        try {
            for (Path rotated : rotated(live)) {
                LogFile f = openSteady(rotated);
                if (f == null) {
                    closeAll(files);
                    closeAll(List.of(current));
                    return null;
                }
                files.add(f);
            }
        } catch (IOException | RuntimeException e) {
            closeAll(files);
            closeAll(List.of(current));
            throw e;
        }
        files.add(current);
        if (!current.key().equals(key(live))) {
            closeAll(files);
            return null;
        }
        return files;
    }

    /** The file at {@code path}, opened while the name kept showing it; null when it is missing or changed. */
    private static LogFile openSteady(Path path) throws IOException {
        Object before = key(path);
        if (before == null) {
            return null;
        }
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return null;
        }
        if (!before.equals(key(path))) {
            channel.close();
            return null;
        }
        return new LogFile(path, before, channel);
    }

    /** {@code <live>.<n>} for every number n, the highest (oldest) first. */
    private static List<Path> rotated(Path live) throws IOException {
        Path dir = live.toAbsolutePath().getParent();
        String prefix = live.getFileName() + ".";
        TreeMap<Long, Path> byNumber = new TreeMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, prefix + "*")) {
            for (Path p : entries) {
                String suffix = p.getFileName().toString().substring(prefix.length());
                if (!suffix.isEmpty() && suffix.length() < 10 && suffix.chars().allMatch(Character::isDigit)) {
                    byNumber.put(Long.parseLong(suffix), p);
                }
            }
        }
        return new ArrayList<>(byNumber.descendingMap().values());
    }

    /** A millisecond: more than a rotation takes from the rename of the live file to the creation of the next. */
    private static void pause() {
        LockSupport.parkNanos(1_000_000);
    }
}
