package io.jkubelet.core.volume.util.subpath;

import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.MountException;
import io.jkubelet.core.volume.util.MountPoints;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;

/**
 * Upstream's {@code doBindSubPath}: a subPath is resolved, checked to be within its volume, and bind-mounted at its own
 * target under the pod's directory, which the runtime is given instead of the subPath. A target already mounted with
 * the same subPath (a container's restart) is used again; one that failed is cleaned away.
 */
final class BindSubPath {
    private static final Logger log = LoggerFactory.getLogger(BindSubPath.class);

    private final HostMounts mounts;
    private final CheckedBindMount bind;

    BindSubPath(HostMounts mounts, CheckedBindMount bind) {
        this.mounts = mounts;
        this.bind = bind;
    }

    /** @return the bind target, for the runtime */
    Path bind(Subpath subpath) throws SubpathException {
        // Symlinks resolved once, here, for everything below.
        Path volumePath = evalSymlinks(subpath.volumePath());
        Path path = evalSymlinks(subpath.path());
        log.debug("doBindSubPath {} ({}) for volumepath {}", subpath.path(), path, subpath.volumePath());
        if (!path.startsWith(volumePath)) {
            throw new SubpathException("subpath \"" + path + "\" not within volume path \"" + volumePath + "\"");
        }
        Path target = subpath.bindTarget();
        if (prepareTarget(path, target)) {
            log.debug("Skipping bind-mounting subpath {}: already mounted", target);
            return target;
        }
        try {
            bind.mount(path, realPath(target));
        } catch (SubpathException e) {
            cleanSubPath(subpath);
            throw e;
        }
        log.debug("Bound SubPath {} into {}", path, target);
        return target;
    }

    /**
     * Upstream {@code prepareSubpathTarget}: makes the target (a directory for a directory, an empty file for anything
     * else, which a bind mount turns into what it mounts).
     *
     * @return whether the target is mounted already with the subPath itself
     */
    private boolean prepareTarget(Path path, Path target) throws SubpathException {
        Path real = realPath(target);
        if (mounts.isMountPoint(real)) {
            if (sameFile(path, real)) {
                return true;
            }
            // Mounted, but not with this subPath (the volume's content changed): mounted again below.
            try {
                mounts.unmount(real);
            } catch (MountException e) {
                throw new SubpathException("error unmounting " + target + ": " + e.getMessage());
            }
        }
        Path parent = target.getParent();
        try {
            Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-x---")));
        } catch (IOException e) {
            throw new SubpathException("error creating directory " + parent + ": " + e);
        }
        try {
            if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Files.createDirectory(target, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-x---")));
                } catch (FileAlreadyExistsException e) {
                    // made by an earlier try
                }
            } else {
                Files.write(target, new byte[0]);
                Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r-----"));
            }
        } catch (IOException e) {
            throw new SubpathException("error creating " + target + ": " + e);
        }
        return false;
    }

    /** Upstream {@code checkSubPathFileEqual}: the same file, its device and inode (symlinks not followed). */
    private static boolean sameFile(Path a, Path b) throws SubpathException {
        try {
            Object ka = Files.readAttributes(a, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            Object kb = Files.readAttributes(b, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            return ka != null && Objects.equals(ka, kb);
        } catch (IOException e) {
            throw new SubpathException("error checking subpath mount info for " + b + ": " + e);
        }
    }

    /** Upstream {@code cleanSubPath}: the failed target unmounted and removed, then its empty directories up to the pod's. */
    private void cleanSubPath(Subpath subpath) {
        Path target = subpath.bindTarget();
        try {
            MountPoints.cleanupMountPoint(mounts, realPath(target)).tearDown();
            removeEmptyDirs(subpath.podDir(), subpath.containerDir());
        } catch (VolumeException | SubpathException | IOException e) {
            log.error("Failed to clean subpath {}: {}", target, e.getMessage());
        }
    }

    /** Upstream {@code removeEmptyDirs}: from {@code endDir} up to {@code baseDir} (not included), until one is not empty. */
    private static void removeEmptyDirs(Path baseDir, Path endDir) throws IOException {
        for (Path dir = endDir; dir != null && !dir.equals(baseDir) && dir.startsWith(baseDir); dir = dir.getParent()) {
            try {
                Files.delete(dir);
            } catch (NoSuchFileException e) {
                // already gone: its parent may be empty
            } catch (DirectoryNotEmptyException e) {
                return;
            }
        }
    }

    private static Path evalSymlinks(Path p) throws SubpathException {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw new SubpathException("error resolving symlinks in \"" + p + "\": " + e);
        }
    }

    /**
     * The path the mount table shows for a kubelet-owned path (the root directory may be reached through a symlink):
     * its parent resolved when it exists, its own name kept.
     */
    static Path realPath(Path p) throws SubpathException {
        Path parent = p.toAbsolutePath().getParent();
        if (parent == null || !Files.exists(parent)) {
            return p.toAbsolutePath().normalize();
        }
        try {
            return parent.toRealPath().resolve(p.getFileName());
        } catch (IOException e) {
            throw new SubpathException("error resolving symlinks in \"" + parent + "\": " + e);
        }
    }
}
