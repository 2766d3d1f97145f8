package io.jkubelet.core.volume.util;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Real loop devices for tests of raw block volumes (root only): a file made a block device with {@code losetup}, and
 * the clean-up a test owes the machine whatever happened: the loop devices on files under its directory (its own, and
 * those a kubelet made to hold a device open) detached, and everything mounted under the directory unmounted.
 */
public final class LoopDevices {
    private LoopDevices() {}

    /** Whether this machine can make loop devices here (root, {@code /dev/loop-control}, {@code losetup}). */
    public static boolean available() {
        return "root".equals(System.getProperty("user.name")) && Files.exists(Path.of("/dev/loop-control"))
                && run("losetup", "--version").isPresent();
    }

    /** A file of {@code sizeBytes} at {@code image} on a loop device; its path ({@code /dev/loopN}). */
    public static String attach(Path image, long sizeBytes) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
            f.setLength(sizeBytes);
        }
        String device = run("losetup", "-f", "--show", image.toString())
                .orElseThrow(() -> new IOException("losetup -f --show " + image + " failed")).strip();
        if (!device.startsWith("/dev/loop")) {
            throw new IOException("losetup gave " + device);
        }
        return device;
    }

    /** The loop devices whose backing file is under {@code dir}, as sysfs lists them. */
    public static List<String> backedUnder(Path dir) {
        List<String> devices = new ArrayList<>();
        try (DirectoryStream<Path> loops = Files.newDirectoryStream(Path.of("/sys/block"), "loop*")) {
            for (Path loop : loops) {
                try {
                    String backing = Files.readString(loop.resolve("loop/backing_file")).strip();
                    if (Path.of(backing.replace(" (deleted)", "")).startsWith(dir)) {
                        devices.add("/dev/" + loop.getFileName());
                    }
                } catch (IOException e) {
                    // not set up
                }
            }
        } catch (IOException e) {
            // no sysfs: nothing to find
        }
        return devices;
    }

    /** Detaches the loop devices backed by files under {@code dir}. */
    public static void detachUnder(Path dir) {
        backedUnder(dir).forEach(d -> run("losetup", "-d", d));
    }

    /**
     * Detaches the loop devices backed by files under {@code dir} (a device still held open is cleared by the kernel
     * once its last user goes: {@code losetup -d} sets its autoclear flag), then unmounts what is mounted under
     * {@code dir}, deepest first.
     */
    public static void cleanUp(Path dir) {
        detachUnder(dir);
        List<Path> mounted = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                Path p = Path.of(line.split(" ")[4]);
                if (p.startsWith(dir)) {
                    mounted.add(p);
                }
            }
        } catch (IOException e) {
            return;
        }
        mounted.sort(Comparator.comparingInt(Path::getNameCount).reversed());
        mounted.forEach(p -> run("umount", p.toString()));
    }

    private static Optional<String> run(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor() == 0 ? Optional.of(out) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
