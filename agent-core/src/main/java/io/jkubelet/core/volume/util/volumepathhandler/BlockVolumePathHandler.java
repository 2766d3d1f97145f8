package io.jkubelet.core.volume.util.volumepathhandler;

import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.MountException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Upstream {@code volumepathhandler.VolumePathHandler}: the files a raw block volume is given by on the node. A device
 * is mapped either by a symbolic link to it (a pod's device map path, which containers get) or by a bind mount of it on
 * a file (a pod's map file under the volume's global map path), and a loop device is made on that map file
 * ({@code losetup -f}) to keep the device open while the pod has it, so that it cannot silently be replaced by another
 * device of the same name. Thread-safe: it keeps no state (the loop devices are found in sysfs).
 */
public final class BlockVolumePathHandler {
    private static final Logger log = LoggerFactory.getLogger(BlockVolumePathHandler.class);
    /** Upstream's {@code ErrDeviceNotFound}. */
    static final String ERR_DEVICE_NOT_FOUND = "device not found";
    private static final int S_IFMT = 0170000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFBLK = 0060000;

    private final HostMounts mounts;
    private final Path sysBlock;

    public BlockVolumePathHandler(HostMounts mounts) {
        this(mounts, Path.of("/sys/block"));
    }

    /** @param sysBlock where the kernel lists block devices ({@code /sys/block}) */
    BlockVolumePathHandler(HostMounts mounts, Path sysBlock) {
        this.mounts = mounts;
        this.sysBlock = sysBlock;
    }

    /**
     * Upstream {@code MapDevice}: maps {@code devicePath} at {@code <mapPath>/<linkName>}, a bind mount of it on a file
     * ({@code bindMount}, the global map path's map file of a pod) or a symbolic link to it (the pod's device map path).
     * {@code mapPath} is made (0750). Idempotent: a bind mount already there stays; a link is made anew (the old one may
     * be stale after a reboot).
     */
    public void mapDevice(String devicePath, Path mapPath, String linkName, boolean bindMount) throws VolumeException {
        if (devicePath == null || devicePath.isEmpty()) {
            throw new VolumeException("failed to map device to map path. devicePath is empty");
        }
        if (!mapPath.isAbsolute()) {
            throw new VolumeException("the map path should be absolute: map path: " + mapPath);
        }
        try {
            mkdirs(mapPath);
        } catch (IOException e) {
            throw new VolumeException("failed to mkdir " + mapPath + ": " + e);
        }
        Path linkPath = mapPath.resolve(linkName);
        if (bindMount) {
            mapBindMountDevice(devicePath, linkPath);
        } else {
            mapSymlinkDevice(devicePath, linkPath);
        }
    }

    private void mapBindMountDevice(String devicePath, Path linkPath) throws VolumeException {
        if (!Files.exists(linkPath)) {
            try {
                Files.createFile(linkPath);
                Files.setPosixFilePermissions(linkPath, PosixFilePermissions.fromString("rwxr-x---"));
            } catch (IOException e) {
                throw new VolumeException("failed to open file " + linkPath + ": " + e);
            }
        } else if (isDevice(linkPath, true)) {
            log.warn("Warning: Map skipped because bind mount already exist on the path: {}", linkPath);
            return;
        } else {
            log.warn("Warning: file {} is already exist but not mounted, skip creating file", linkPath);
        }
        try {
            mounts.bindMount(Path.of(devicePath), linkPath, List.of());
        } catch (MountException e) {
            throw new VolumeException("failed to bind mount devicePath: " + devicePath + " to linkPath " + linkPath + ": "
                    + e.getMessage());
        }
    }

    private static void mapSymlinkDevice(String devicePath, Path linkPath) throws VolumeException {
        try {
            Files.deleteIfExists(linkPath);
        } catch (IOException e) {
            throw new VolumeException("failed to remove file " + linkPath + ": " + e);
        }
        try {
            Files.createSymbolicLink(linkPath, Path.of(devicePath));
        } catch (IOException e) {
            throw new VolumeException("symlink " + devicePath + " " + linkPath + ": " + e);
        }
    }

    /**
     * Upstream {@code UnmapDevice}: undoes {@link #mapDevice}; nothing when it is not there.
     */
    public void unmapDevice(Path mapPath, String linkName, boolean bindMount) throws VolumeException {
        Path linkPath = mapPath.resolve(linkName);
        if (bindMount) {
            if (!isDeviceBindMountExist(linkPath)) {
                log.warn("Warning: Unmap skipped because bind mount does not exist on the path: {}", linkPath);
                remove(linkPath);
                return;
            }
            try {
                mounts.unmount(linkPath);
            } catch (MountException e) {
                throw new VolumeException("failed to unmount linkPath " + linkPath + ": " + e.getMessage());
            }
            remove(linkPath);
            return;
        }
        if (!isSymlinkExist(linkPath)) {
            log.warn("Warning: Unmap skipped because symlink does not exist on the path: {}", linkPath);
            return;
        }
        remove(linkPath);
    }

    private static void remove(Path p) throws VolumeException {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new VolumeException("failed to remove file " + p + ": " + e);
        }
    }

    /** Upstream {@code RemoveMapPath}: removes the directory and what is left in it (nothing mounted by then). */
    public void removeMapPath(Path mapPath) throws VolumeException {
        try {
            if (Files.isDirectory(mapPath, LinkOption.NOFOLLOW_LINKS)) {
                try (var tree = Files.walk(mapPath)) {
                    for (Path p : tree.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            } else {
                Files.deleteIfExists(mapPath);
            }
        } catch (IOException e) {
            throw new VolumeException("failed to remove directory " + mapPath + ": " + e);
        }
    }

    /** Upstream {@code IsSymlinkExist}: whether {@code path} is a symbolic link (not followed). */
    public boolean isSymlinkExist(Path path) {
        return Files.isSymbolicLink(path);
    }

    /** Upstream {@code IsDeviceBindMountExist}: whether {@code path} itself (not followed) is a device file. */
    public boolean isDeviceBindMountExist(Path path) {
        return isDevice(path, false);
    }

    /**
     * Upstream {@code GetDeviceBindMountRefs}: the pods' map files under the volume's global map path that still hold
     * the device.
     *
     * @throws NoSuchFileException when the global map path is not there (its set-up never finished)
     */
    public List<Path> getDeviceBindMountRefs(Path mapPath) throws IOException {
        List<Path> refs = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(mapPath)) {
            for (Path f : files) {
                if (isDevice(f, false)) {
                    refs.add(f);
                }
            }
        }
        return refs;
    }

    /**
     * Upstream {@code AttachFileDevice}: the loop device on {@code path}, made with {@code losetup -f} unless there is
     * one already.
     *
     * @return the loop device, e.g. {@code /dev/loop3}
     */
    public String attachFileDevice(Path path) throws VolumeException {
        Optional<String> existing = getLoopDevice(path);
        if (existing.isPresent()) {
            return existing.get();
        }
        log.debug("Creating device for path: {}", path);
        String failure = losetup("-f", path.toString());
        if (failure != null) {
            throw new VolumeException("makeLoopDevice failed for path " + path + ": losetup -f " + path + " failed: "
                    + failure);
        }
        return getLoopDevice(path).orElseThrow(() -> new VolumeException("makeLoopDevice failed for path " + path
                + ": " + ERR_DEVICE_NOT_FOUND));
    }

    /** Upstream {@code DetachFileDevice}: removes the loop device on {@code path}, if there is one. */
    public void detachFileDevice(Path path) throws VolumeException {
        Optional<String> loop = getLoopDevice(path);
        if (loop.isEmpty()) {
            log.warn("couldn't find loopback device which takes file descriptor lock. Skip detaching device. "
                    + "device path: \"{}\"", path);
            return;
        }
        String failure = losetup("-d", loop.get());
        if (failure != null && Files.exists(Path.of(loop.get()))) {
            throw new VolumeException("removeLoopDevice failed for path " + path + ": losetup -d " + loop.get()
                    + " failed: " + failure);
        }
    }

    /**
     * Upstream {@code GetLoopDevice}: the loop device whose backing file is {@code path} (or where it leads), found in
     * sysfs ({@code /sys/block/loop*}{@code /loop/backing_file}); empty when there is none or no such file.
     */
    public Optional<String> getLoopDevice(Path path) {
        if (!Files.exists(path)) {
            return Optional.empty();
        }
        String real;
        try {
            real = path.toRealPath().toString();
        } catch (IOException e) {
            return Optional.empty();
        }
        try (DirectoryStream<Path> devices = Files.newDirectoryStream(sysBlock, "loop*")) {
            for (Path device : devices) {
                String backing;
                try {
                    backing = cleanBackingFilePath(Files.readString(device.resolve("loop/backing_file")));
                } catch (IOException e) {
                    continue; // not set up
                }
                if (backing.equals(path.toString()) || backing.equals(real)) {
                    return Optional.of("/dev/" + device.getFileName());
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** Upstream {@code cleanBackingFilePath}: the kernel adds {@code (deleted)} for a file that was removed. */
    static String cleanBackingFilePath(String path) {
        String p = path.strip();
        return p.endsWith("(deleted)") ? p.substring(0, p.length() - "(deleted)".length()).strip() : p;
    }

    /** Whether {@code p} is a device file (Go's {@code os.ModeDevice}: block or character). */
    private static boolean isDevice(Path p, boolean follow) {
        try {
            int mode = (Integer) (follow ? Files.getAttribute(p, "unix:mode")
                    : Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS)) & S_IFMT;
            return mode == S_IFBLK || mode == S_IFCHR;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static void mkdirs(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
        }
    }

    /** Runs {@code losetup args}; null when it succeeded, else Go's words for the exit and its output. */
    private static String losetup(String... args) {
        List<String> cmd = new ArrayList<>(List.of("losetup"));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            int code = p.waitFor();
            return code == 0 ? null : "exit status " + code + (out.isEmpty() ? "" : ": " + out);
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
