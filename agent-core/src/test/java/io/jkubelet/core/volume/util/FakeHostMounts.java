package io.jkubelet.core.volume.util;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The host's mounts for tests that must not mount: the table is a mountinfo file read as {@link LinuxMounts} reads
 * {@code /proc/self/mountinfo}; each mount command is recorded ({@code bind SOURCE TARGET}, {@code make-rshared
 * TARGET}, ...) and what it would have made is written to the table, as the kernel would show it. A command named
 * with {@link #failOn} fails as {@code mount} does.
 */
public final class FakeHostMounts implements HostMounts {
    private final Path table;
    private final LinuxMounts reader;
    private final List<String> commands = new CopyOnWriteArrayList<>();
    private volatile String failing = "";
    private int nextId = 1000;

    /** @param table the mountinfo file, made with these lines */
    public FakeHostMounts(Path table, String... lines) {
        this.table = table;
        this.reader = new LinuxMounts(table);
        try {
            Files.write(table, List.of(lines), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The commands run so far, in order. */
    public List<String> commands() {
        return List.copyOf(commands);
    }

    /** Makes the commands of this name ({@code bind}, {@code make-rshared}, {@code mount}, {@code umount}) fail. */
    public void failOn(String command) {
        failing = command;
    }

    @Override
    public boolean isMountPoint(Path path) {
        return reader.isMountPoint(path);
    }

    @Override
    public Optional<MountPoint> mountAt(Path path) {
        return reader.mountAt(path);
    }

    @Override
    public Optional<MountPoint> mountHolding(Path path) {
        return reader.mountHolding(path);
    }

    @Override
    public List<Path> mountRefs(Path path) throws MountException {
        return reader.mountRefs(path);
    }

    @Override
    public void mount(String source, Path target, String fsType, List<String> options) throws MountException {
        run("mount", "mount -t " + fsType + " -o " + String.join(",", options) + " " + source + " " + target);
        add(source, target, fsType, "");
    }

    @Override
    public void bindMount(Path source, Path target, List<String> options) throws MountException {
        run("bind", "bind " + source + " " + target);
        // A bind mount of a directory on a private mount is private.
        add(source.toString(), target, "ext4", "");
    }

    @Override
    public void makeRShared(Path mountPoint) throws MountException {
        run("make-rshared", "make-rshared " + mountPoint);
        add(mountPoint.toString(), mountPoint, "ext4", "shared:" + nextId + " ");
    }

    @Override
    public void unmount(Path target) throws MountException {
        run("umount", "umount " + target);
    }

    private void run(String name, String command) throws MountException {
        commands.add(command);
        if (failing.equals(name)) {
            throw new MountException("mount failed: exit status 32\nMounting command: mount\nOutput: " + name
                    + " refused by the test");
        }
    }

    /** Appends the mount as the table's last line: the one that shows at {@code target}. */
    private synchronized void add(String source, Path target, String fsType, String optional) {
        int id = nextId++;
        String line = id + " 1 0:0 / " + target + " rw,relatime " + optional + "- " + fsType + " " + source + " rw\n";
        try {
            Files.writeString(table, line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
