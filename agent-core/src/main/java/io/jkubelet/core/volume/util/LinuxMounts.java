package io.jkubelet.core.volume.util;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@link HostMounts} on Linux: {@code /proc/self/mountinfo} read afresh at each question, {@code mount} and
 * {@code umount} run as processes with mount-utils' arguments and messages. A command is not timed out (mount-utils
 * does not either): a mount that hangs holds only its own operation, which the volume manager never runs twice.
 */
public final class LinuxMounts implements HostMounts {
    private final Path mountInfo;

    public LinuxMounts() {
        this(Path.of("/proc/self/mountinfo"));
    }

    /** @param mountInfo the mount table to read (tests give a file of their own) */
    public LinuxMounts(Path mountInfo) {
        this.mountInfo = mountInfo;
    }

    @Override
    public boolean isMountPoint(Path path) {
        return mountAt(path).isPresent();
    }

    /** Compares the device of {@code path} with its parent's, as mount-utils' {@code IsLikelyNotMountPoint}. */
    @Override
    public boolean isLikelyMountPoint(Path path) {
        Path parent = path.toAbsolutePath().getParent();
        if (parent == null) {
            return true; // the root directory
        }
        try {
            return !Files.getAttribute(path, "unix:dev", LinkOption.NOFOLLOW_LINKS)
                    .equals(Files.getAttribute(parent, "unix:dev", LinkOption.NOFOLLOW_LINKS));
        } catch (IOException | UnsupportedOperationException e) {
            return isMountPoint(path);
        }
    }

    @Override
    public Optional<MountPoint> mountAt(Path path) {
        String wanted = path.toAbsolutePath().normalize().toString();
        MountPoint last = null;
        for (MountPoint m : list()) {
            if (m.path().toString().equals(wanted)) {
                last = m; // the last mount at a path is the one that shows there
            }
        }
        return Optional.ofNullable(last);
    }

    @Override
    public Optional<MountPoint> mountHolding(Path path) {
        Path wanted = path.toAbsolutePath().normalize();
        List<MountPoint> mounts = list();
        // Backwards, as upstream: a mount made later over an ancestor hides the mounts below it.
        for (int i = mounts.size() - 1; i >= 0; i--) {
            if (wanted.startsWith(mounts.get(i).path())) {
                return Optional.of(mounts.get(i));
            }
        }
        return Optional.empty();
    }

    /** Every mount, in the table's order; empty when the table cannot be read. */
    List<MountPoint> list() {
        List<MountPoint> mounts = new ArrayList<>();
        for (String line : lines()) {
            parse(line).ifPresent(mounts::add);
        }
        return mounts;
    }

    private List<String> lines() {
        try {
            return Files.readAllLines(mountInfo, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of();
        }
    }

    @Override
    public List<Path> mountRefs(Path path) throws MountException {
        if (!Files.exists(path)) {
            return List.of();
        }
        Path real;
        try {
            real = path.toRealPath();
        } catch (IOException e) {
            throw new MountException("error checking path " + path + ": " + e);
        }
        return searchMountPoints(real, list());
    }

    /**
     * mount-utils' {@code SearchMountPoints}: the last mount that holds {@code hostSource} tells the directory's root
     * within its file system and the file system's device; every other mount of that root of that device is a ref.
     */
    static List<Path> searchMountPoints(Path hostSource, List<MountPoint> table) throws MountException {
        MountPoint holder = null;
        // Backwards: a later mount may overlap an earlier one.
        for (int i = table.size() - 1; i >= 0 && holder == null; i--) {
            if (hostSource.startsWith(table.get(i).path())) {
                holder = table.get(i);
            }
        }
        if (holder == null) {
            throw new MountException("failed to get root path and major:minor for " + hostSource);
        }
        String rootPath = holder.rootOf(hostSource);
        List<Path> refs = new ArrayList<>();
        for (MountPoint m : table) {
            if (!m.id().equals(holder.id()) && m.root().equals(rootPath) && m.device().equals(holder.device())) {
                refs.add(m.path());
            }
        }
        return refs;
    }

    /** One line of mountinfo: {@code id parent dev root mountpoint options [optional...] - fstype source superoptions}. */
    static Optional<MountPoint> parse(String line) {
        String[] f = line.split(" ");
        int dash = -1;
        for (int i = 6; i < f.length; i++) {
            if (f[i].equals("-")) {
                dash = i;
                break;
            }
        }
        if (f.length < 5 || dash < 0 || dash + 2 >= f.length) {
            return Optional.empty();
        }
        return Optional.of(new MountPoint(f[0], f[2], unescape(f[3]), Path.of(unescape(f[4])), f[dash + 1],
                unescape(f[dash + 2]), Arrays.asList(f).subList(6, dash)));
    }

    /** The kernel writes space, tab, newline and backslash in paths as octal escapes ({@code \040}). */
    static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && isOctal(s, i + 1)) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static boolean isOctal(String s, int from) {
        if (from + 3 > s.length()) {
            return false;
        }
        for (int i = from; i < from + 3; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '7') {
                return false;
            }
        }
        return true;
    }

    @Override
    public void mount(String source, Path target, String fsType, List<String> options) throws MountException {
        List<String> args = new ArrayList<>();
        if (fsType != null && !fsType.isEmpty()) {
            args.add("-t");
            args.add(fsType);
        }
        if (!options.isEmpty()) {
            args.add("-o");
            args.add(String.join(",", options));
        }
        args.add(source);
        args.add(target.toString());
        doMount(args);
    }

    @Override
    public void bindMount(Path source, Path target, List<String> options) throws MountException {
        doMount(List.of("-o", "bind", source.toString(), target.toString()));
        if (!options.isEmpty()) {
            // mount(8) ignores other options on the first bind: a read-only bind is a remount of it.
            doMount(List.of("-o", "bind,remount," + String.join(",", options), source.toString(), target.toString()));
        }
    }

    @Override
    public void makeRShared(Path mountPoint) throws MountException {
        doMount(List.of("--make-rshared", mountPoint.toString()));
    }

    private static void doMount(List<String> args) throws MountException {
        List<String> cmd = new ArrayList<>();
        cmd.add("mount");
        cmd.addAll(args);
        Result r = run(cmd);
        if (r.failure() != null) {
            throw new MountException("mount failed: " + r.failure() + "\nMounting command: mount\nMounting arguments: "
                    + String.join(" ", args) + "\nOutput: " + r.output());
        }
    }

    @Override
    public void unmount(Path target) throws MountException {
        Result r = run(List.of("umount", target.toString()));
        if (r.failure() != null) {
            throw new MountException("unmount failed: " + r.failure() + "\nUnmounting arguments: " + target
                    + "\nOutput: " + r.output());
        }
    }

    /** @param failure Go's {@code exec} error ({@code exit status 32}), or null on success */
    private record Result(String failure, String output) {}

    private static Result run(List<String> cmd) {
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            return new Result("exec: \"" + cmd.get(0) + "\": " + e.getMessage(), "");
        }
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int code = p.waitFor();
            return new Result(code == 0 ? null : "exit status " + code, out);
        } catch (IOException e) {
            p.destroyForcibly();
            return new Result(e.getMessage(), "");
        } catch (InterruptedException e) {
            // The kubelet stops: what the command did stays as it is, as the next start finds it.
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return new Result("interrupted", "");
        }
    }
}
