package io.jkubelet.core.volume;

import io.jkubelet.core.volume.util.RemoveAll;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a volume's files so that a container never sees half an update (upstream {@code AtomicWriter}, used by the
 * configMap, secret, downwardAPI and projected volumes). The layout in the volume directory:
 * <pre>
 *   ..2026_01_01_00_00_00.123456789/   the files of one version
 *   ..data -> ..2026_01_01_00_00_00.123456789
 *   key -> ..data/key                   one link per top-level name of the payload
 * </pre>
 * An update writes a new timestamped directory, lets the caller set the volume's permissions (upstream's
 * {@code setPerms}: the pod's {@code fsGroup}), points a temporary link {@code ..data_tmp} at it and renames that over
 * {@code ..data} (one atomic {@code rename(2)}), then removes the old directory and the links of names no longer in the
 * payload. A payload whose files are on disk with the same content writes nothing (upstream's
 * {@code shouldWritePayload}: the content is compared, not the mode, which {@code fsGroup} changes). Not thread-safe
 * for one directory: the caller (the pod's worker) serializes.
 */
public final class AtomicWriter {
    static final String DATA_DIR = "..data";
    static final String NEW_DATA_DIR = "..data_tmp";
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("'..'yyyy_MM_dd_HH_mm_ss.")
            .withZone(ZoneOffset.UTC);

    private final Path targetDir;
    private final Clock clock;

    public AtomicWriter(Path targetDir, Clock clock) {
        this.targetDir = targetDir;
        this.clock = clock;
    }

    /** What sets the volume's permissions once a new version is written, before containers see it. */
    @FunctionalInterface
    public interface SetPerms {
        /**
         * @param tsDir the new version's timestamped directory, in the volume's directory
         * @throws IOException when the permissions cannot be set: the new version is not made visible
         */
        void apply(Path tsDir) throws IOException;
    }

    /** Makes the directory show exactly {@code payload}, its permissions as written. */
    public boolean write(Map<String, FileProjection> payload) throws IOException {
        return write(payload, tsDir -> { });
    }

    /**
     * Makes the directory show exactly {@code payload} (relative path -> file).
     *
     * @param setPerms run after a new version's files are written and before {@code ..data} points at them; not run
     *     when nothing is written
     * @return true when something was written, false when the payload was already there
     * @throws IOException with the path that failed; a bad path in the payload is an {@link IllegalArgumentException}
     */
    public boolean write(Map<String, FileProjection> payload, SetPerms setPerms) throws IOException {
        Map<String, FileProjection> clean = new TreeMap<>();
        for (var e : payload.entrySet()) {
            clean.put(validatePath(e.getKey()), e.getValue());
        }
        Files.createDirectories(targetDir);
        Path dataLink = targetDir.resolve(DATA_DIR);
        Path oldTsDir = null;
        if (Files.isSymbolicLink(dataLink)) {
            oldTsDir = targetDir.resolve(Files.readSymbolicLink(dataLink));
            if (Files.isDirectory(oldTsDir, LinkOption.NOFOLLOW_LINKS) && sameContent(oldTsDir, clean)) {
                createUserVisibleLinks(clean);
                return false;
            }
        }
        Path tsDir = newTimestampedDir();
        for (var e : clean.entrySet()) {
            Path file = tsDir.resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.write(file, e.getValue().data());
            Files.setPosixFilePermissions(file, permissions(e.getValue().mode()));
            if (e.getValue().fsUser() != null) {
                try {
                    Files.setAttribute(file, "unix:uid", e.getValue().fsUser().intValue());
                } catch (IOException | RuntimeException ex) {
                    throw new IOException("unable to change file " + file + " with owner " + e.getValue().fsUser() + ": " + ex, ex);
                }
            }
        }
        setPerms.apply(tsDir);
        Path tmpLink = targetDir.resolve(NEW_DATA_DIR);
        Files.deleteIfExists(tmpLink);
        Files.createSymbolicLink(tmpLink, tsDir.getFileName());
        Files.move(tmpLink, dataLink, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        createUserVisibleLinks(clean);
        removeStaleLinks(clean);
        if (oldTsDir != null && !oldTsDir.equals(tsDir)) {
            RemoveAll.oneFilesystem(oldTsDir);
        }
        return true;
    }

    /** Paths must be relative, inside the volume, and may not start with {@code ..} (reserved for the writer). */
    static String validatePath(String path) {
        if (path == null || path.isEmpty()) {
            throw new IllegalArgumentException("invalid path: must not be empty");
        }
        if (path.length() > 4096) {
            throw new IllegalArgumentException("invalid path \"" + path + "\": must be less than or equal to 4096 characters");
        }
        if (path.startsWith("/")) {
            throw new IllegalArgumentException("invalid path \"" + path + "\": must be relative path");
        }
        for (String segment : path.split("/")) {
            if (segment.equals("..")) {
                throw new IllegalArgumentException("invalid path \"" + path + "\": must not contain '..'");
            }
        }
        if (path.startsWith("..")) {
            throw new IllegalArgumentException("invalid path \"" + path + "\": must not start with '..'");
        }
        return Path.of(path).normalize().toString();
    }

    private Path newTimestampedDir() throws IOException {
        String prefix = TS.format(clock.instant());
        while (true) {
            Path p = targetDir.resolve(prefix + ThreadLocalRandom.current().nextInt(1_000_000_000));
            try {
                Files.createDirectory(p);
                Files.setPosixFilePermissions(p, permissions(0755));
                return p;
            } catch (FileAlreadyExistsException e) {
                // another random suffix
            }
        }
    }

    private boolean sameContent(Path tsDir, Map<String, FileProjection> payload) throws IOException {
        Set<String> onDisk = new HashSet<>();
        try (var walk = Files.walk(tsDir)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                onDisk.add(tsDir.relativize(p).toString());
            }
        }
        if (!onDisk.equals(payload.keySet())) {
            return false;
        }
        for (var e : payload.entrySet()) {
            if (!Arrays.equals(Files.readAllBytes(tsDir.resolve(e.getKey())), e.getValue().data())) {
                return false;
            }
        }
        return true;
    }

    /** One link per top-level name: {@code key -> ..data/key}; a nested path {@code a/b} shows through {@code a}. */
    private void createUserVisibleLinks(Map<String, FileProjection> payload) throws IOException {
        for (String top : topLevelNames(payload)) {
            Path link = targetDir.resolve(top);
            Path want = Path.of(DATA_DIR, top);
            if (Files.isSymbolicLink(link)) {
                if (Files.readSymbolicLink(link).equals(want)) {
                    continue;
                }
                Files.delete(link);
            } else if (Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException("cannot create link " + link + ": a file that is not a link is in the way");
            }
            Files.createSymbolicLink(link, want);
        }
    }

    private void removeStaleLinks(Map<String, FileProjection> payload) throws IOException {
        Set<String> keep = topLevelNames(payload);
        try (var s = Files.list(targetDir)) {
            for (Path p : s.toList()) {
                String name = p.getFileName().toString();
                if (!name.startsWith("..") && !keep.contains(name) && Files.isSymbolicLink(p)) {
                    Files.delete(p);
                }
            }
        }
    }

    private static Set<String> topLevelNames(Map<String, FileProjection> payload) {
        Set<String> names = new HashSet<>();
        for (String p : payload.keySet()) {
            int slash = p.indexOf('/');
            names.add(slash < 0 ? p : p.substring(0, slash));
        }
        return names;
    }

    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = {
                PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
                PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
                PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << i)) != 0) {
                set.add(bits[i]);
            }
        }
        return set;
    }
}
