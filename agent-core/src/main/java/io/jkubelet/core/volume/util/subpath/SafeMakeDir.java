package io.jkubelet.core.volume.util.subpath;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Upstream's {@code SafeMakeDir}: makes the directories of a subPath that are not there yet, each given the volume
 * root's mode (setgid and sticky bits too, whatever the umask), and never a directory outside the volume, even when a
 * container swaps a directory on the way for a symlink meanwhile.
 *
 * <p>Upstream opens the existing part with {@code O_NOFOLLOW}, makes each new directory with {@code mkdirat} in the
 * directory it holds open and sets its mode with {@code fchmod}. Java has neither call (and its no-follow {@code chmod}
 * by path opens the path following links: seen with Temurin 25). A process's working directory is such a held
 * directory: a shell changes into the existing part, checks that where it is ({@code /proc/<pid>/cwd}, the kernel's own
 * path of the directory it holds) is within the volume, then makes each directory relative to it, changes into it,
 * checks again and sets the mode of {@code .}, the directory it holds, whatever names are swapped around it.
 */
final class SafeMakeDir {
    private static final Logger log = LoggerFactory.getLogger(SafeMakeDir.class);

    /**
     * {@code sh -c SCRIPT sh <base> <existing> <mode> <dir>...}: every check is on the working directory; only the base
     * (the volume's own real path, which the kubelet trusts as upstream does) and the existing part are named by path.
     */
    private static final String SCRIPT = """
            base=$1; mode=$3
            cd -P -- "$2" || exit 1
            shift 3
            inside() {
              here=$(readlink /proc/$$/cwd) || exit 1
              case "$here/" in
                "${base%/}"/*) ;;
                *) echo "path $here is outside of allowed base $base" >&2; exit 1 ;;
              esac
            }
            inside
            for d do
              mkdir -- "$d" || exit 1
              cd -P -- "$d" || exit 1
              inside
              chmod "$mode" . || exit 1
            done
            """;

    /** What runs between the Java checks and the shell: nothing, or a test playing the container that swaps a directory. */
    private final Runnable beforeMake;

    SafeMakeDir(Runnable beforeMake) {
        this.beforeMake = beforeMake;
    }

    /**
     * @param subdir the subPath, relative to {@code base}
     * @param base the volume's path
     * @param perm the mode of each directory made, with its setgid and sticky bits
     */
    void make(String subdir, Path base, int perm) throws SubpathException {
        Path realBase;
        try {
            realBase = base.toRealPath();
        } catch (IOException e) {
            throw new SubpathException("error resolving symlinks in " + base + ": " + e);
        }
        Path pathname = realBase.resolve(subdir).normalize();
        log.debug("Creating directory {} within base {}", pathname, realBase);
        if (!pathname.startsWith(realBase)) {
            throw outside(pathname, realBase);
        }
        if (Files.exists(pathname)) {
            if (Files.isDirectory(pathname)) {
                // It may be outside the volume; the bind mount of the subPath checks that.
                return;
            }
            throw new SubpathException("mkdir " + pathname + ": not a directory");
        }
        // Upstream findExistingPrefix: the directories that are there (symlinks followed), and those to make.
        Path existing = realBase;
        List<String> toCreate = new ArrayList<>();
        for (Path name : realBase.relativize(pathname)) {
            if (toCreate.isEmpty() && Files.exists(existing.resolve(name))) {
                existing = existing.resolve(name);
            } else {
                toCreate.add(name.toString());
            }
        }
        Path fullExisting;
        try {
            fullExisting = existing.toRealPath();
        } catch (IOException e) {
            throw new SubpathException("error opening directory " + existing + ": " + e);
        }
        if (!fullExisting.startsWith(realBase)) {
            throw outside(fullExisting, realBase);
        }
        beforeMake.run();
        run(realBase, fullExisting, perm, toCreate, pathname);
    }

    private static SubpathException outside(Path path, Path base) {
        return new SubpathException("path " + path + " is outside of allowed base " + base);
    }

    private static void run(Path base, Path existing, int perm, List<String> toCreate, Path pathname)
            throws SubpathException {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", SCRIPT, "sh", base.toString(), existing.toString(),
                // Five digits: GNU chmod keeps a directory's setgid bit unless the mode says it explicitly.
                String.format("0%04o", perm & 07777)));
        cmd.addAll(toCreate);
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new SubpathException("cannot create directory " + pathname + ": " + e.getMessage());
        }
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.waitFor() != 0) {
                throw new SubpathException("cannot create directory " + pathname + ": " + out);
            }
        } catch (IOException e) {
            p.destroyForcibly();
            throw new SubpathException("cannot create directory " + pathname + ": " + e.getMessage());
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new SubpathException("cannot create directory " + pathname + ": interrupted");
        }
    }
}
