package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.HostPathVolumeSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Sets up and tears down a pod's volumes on the node: {@code emptyDir} (a directory under the pod's dir, or a
 * tmpfs for {@code medium: Memory}) and {@code hostPath} with its {@code type} checks. Volumes that need the
 * apiserver (configMap, secret, projected, ...) fail with a message saying so. Thread-safe per pod.
 */
public final class VolumeManager {
    private static final Logger log = LoggerFactory.getLogger(VolumeManager.class);
    static final String EMPTY_DIR = "kubernetes.io/empty-dir";

    private final PodDirs dirs;
    private final ApiVolumes apiVolumes;

    public VolumeManager(PodDirs dirs) {
        this(dirs, null);
    }

    /** @param apiVolumes sets up configMap, secret, downwardAPI and projected volumes; null on a standalone node */
    public VolumeManager(PodDirs dirs, ApiVolumes apiVolumes) {
        this.dirs = dirs;
        this.apiVolumes = apiVolumes;
    }

    /** Mounts every volume of the pod and returns the host path of each, by volume name. Idempotent. */
    public Map<String, Path> mountVolumes(Pod pod) throws VolumeException {
        String uid = pod.getMetadata().getUid();
        Map<String, Path> paths = new LinkedHashMap<>();
        List<Volume> volumes = pod.getSpec().getVolumes() == null ? List.of() : pod.getSpec().getVolumes();
        for (Volume v : volumes) {
            if (v.getHostPath() != null) {
                paths.put(v.getName(), hostPath(v.getName(), v.getHostPath()));
            } else if (v.getEmptyDir() != null || isSourceless(v)) {
                boolean memory = v.getEmptyDir() != null && "Memory".equals(v.getEmptyDir().getMedium());
                paths.put(v.getName(), emptyDir(uid, v.getName(), memory));
            } else if (apiVolumes != null && ApiVolumes.handles(v)
                    && (apiVolumes.fromApiserver() || v.getDownwardAPI() != null)) {
                // A standalone node still serves downwardAPI volumes: they need nothing but the pod.
                paths.put(v.getName(), apiVolumes.setUp(pod, v));
            } else {
                throw new VolumeException("MountVolume.SetUp failed for volume \"" + v.getName()
                        + "\": volume type " + volumeType(v) + " needs the apiserver, and this node runs standalone");
            }
        }
        return paths;
    }

    /**
     * Sets up again the volumes whose content can change while the pod runs (configMap, secret, downwardAPI,
     * projected; upstream's {@code RequiresRemount}), so that their files follow the objects. Others are left alone.
     */
    public void remountVolumes(Pod pod) throws VolumeException {
        if (apiVolumes == null || pod.getSpec().getVolumes() == null) {
            return;
        }
        for (Volume v : pod.getSpec().getVolumes()) {
            if (ApiVolumes.handles(v) && (apiVolumes.fromApiserver() || v.getDownwardAPI() != null)) {
                apiVolumes.setUp(pod, v);
            }
        }
    }

    /** Unmounts memory-backed volumes and removes the pod's directory. */
    public void cleanupPod(String uid) {
        if (apiVolumes != null) {
            apiVolumes.forgetPod(uid);
        }
        Path podDir = dirs.podDir(uid);
        // Memory-backed volumes: emptyDir with medium Memory, and the tmpfs of secret, projected and downwardAPI ones.
        for (String plugin : List.of(EMPTY_DIR, ApiVolumes.SECRET, ApiVolumes.PROJECTED, ApiVolumes.DOWNWARD_API)) {
            Path pluginDir = dirs.volumesDir(uid).resolve(plugin.replace('/', '~'));
            if (!Files.isDirectory(pluginDir)) {
                continue;
            }
            try (var s = Files.list(pluginDir)) {
                for (Path p : s.toList()) {
                    if (isMountPoint(p)) {
                        run("umount", p.toString());
                    }
                }
            } catch (IOException e) {
                log.warn("Failed to list {} volumes of pod {}: {}", plugin, uid, e.getMessage());
            }
        }
        try {
            deleteRecursively(podDir);
        } catch (IOException e) {
            log.warn("Failed to remove pod directory {}: {}", podDir, e.getMessage());
        }
    }

    private Path emptyDir(String uid, String name, boolean memory) throws VolumeException {
        Path dir = dirs.volumeDir(uid, EMPTY_DIR, name);
        try {
            Files.createDirectories(dir);
            // An emptyDir is world-writable like upstream's (0777), so any container user can use it.
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        } catch (IOException e) {
            throw new VolumeException("MountVolume.SetUp failed for volume \"" + name + "\": " + e.getMessage());
        }
        if (memory && !isMountPoint(dir)) {
            String err = run("mount", "-t", "tmpfs", "tmpfs", dir.toString());
            if (err != null) {
                throw new VolumeException("MountVolume.SetUp failed for volume \"" + name
                        + "\": mount of tmpfs failed: " + err);
            }
        }
        return dir;
    }

    private static Path hostPath(String name, HostPathVolumeSource src) throws VolumeException {
        Path p = Path.of(src.getPath());
        String type = src.getType() == null ? "" : src.getType();
        String prefix = "MountVolume.SetUp failed for volume \"" + name + "\" : hostPath type check failed: "
                + src.getPath() + " ";
        try {
            switch (type) {
                case "" -> { }
                case "DirectoryOrCreate" -> {
                    if (!Files.exists(p)) {
                        Files.createDirectories(p);
                        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
                    } else if (!Files.isDirectory(p)) {
                        throw new VolumeException(prefix + "is not a directory");
                    }
                }
                case "Directory" -> {
                    if (!Files.isDirectory(p)) {
                        throw new VolumeException(prefix + "is not a directory");
                    }
                }
                case "FileOrCreate" -> {
                    if (!Files.exists(p)) {
                        Files.createDirectories(p.getParent());
                        Files.createFile(p);
                        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
                    } else if (!Files.isRegularFile(p)) {
                        throw new VolumeException(prefix + "is not a file");
                    }
                }
                case "File" -> {
                    if (!Files.isRegularFile(p)) {
                        throw new VolumeException(prefix + "is not a file");
                    }
                }
                case "Socket", "CharDevice", "BlockDevice" -> {
                    String want = switch (type) {
                        case "Socket" -> "socket";
                        case "CharDevice" -> "character special file";
                        default -> "block special file";
                    };
                    String kind = fileKind(p);
                    if (!want.equals(kind)) {
                        throw new VolumeException(prefix + "is not a " + type.toLowerCase(Locale.ROOT));
                    }
                }
                default -> throw new VolumeException("MountVolume.SetUp failed for volume \"" + name
                        + "\": unknown hostPath type \"" + type + "\"");
            }
        } catch (IOException e) {
            throw new VolumeException(prefix + e.getMessage());
        }
        return p;
    }

    private static String fileKind(Path p) {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return "missing";
        }
        try {
            Process proc = new ProcessBuilder("stat", "-L", "-c", "%F", p.toString()).redirectErrorStream(true).start();
            String out = new String(proc.getInputStream().readAllBytes()).trim();
            proc.waitFor(5, TimeUnit.SECONDS);
            return out;
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private static boolean isSourceless(Volume v) {
        return v.getAdditionalProperties().isEmpty() && volumeType(v).equals("unknown");
    }

    private static String volumeType(Volume v) {
        if (v.getConfigMap() != null) return "configMap";
        if (v.getSecret() != null) return "secret";
        if (v.getProjected() != null) return "projected";
        if (v.getDownwardAPI() != null) return "downwardAPI";
        if (v.getPersistentVolumeClaim() != null) return "persistentVolumeClaim";
        if (v.getNfs() != null) return "nfs";
        if (v.getCsi() != null) return "csi";
        if (v.getEphemeral() != null) return "ephemeral";
        return "unknown";
    }

    static boolean isMountPoint(Path p) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                String[] f = line.split(" ");
                if (f.length > 4 && f[4].equals(p.toAbsolutePath().toString())) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /** Runs a command, returning null on success or its output on failure. */
    static String run(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return String.join(" ", cmd) + " timed out";
            }
            return p.exitValue() == 0 ? null : out;
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** Deletes a file or a directory tree; refuses to descend into anything still mounted. */
    public static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            if (isMountPoint(p)) {
                // Never descend into something still mounted (a hostPath bind or a tmpfs): its data is not ours.
                throw new IOException(p + " is still a mount point");
            }
            try (var s = Files.list(p)) {
                for (Path c : s.toList()) {
                    deleteRecursively(c);
                }
            }
        }
        Files.delete(p);
    }
}
