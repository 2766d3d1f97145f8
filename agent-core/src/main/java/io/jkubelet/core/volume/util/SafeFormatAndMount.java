package io.jkubelet.core.volume.util;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * mount-utils' {@code SafeFormatAndMount}: a block device is mounted with the file system it holds; one that holds none
 * ({@code blkid} finds nothing) is formatted first ({@code mkfs.ext4 -F -m0}, {@code mkfs.<type>} otherwise). A device
 * that holds another file system than asked is mounted as it is, never formatted over.
 */
public final class SafeFormatAndMount {
    private final HostMounts mounts;

    public SafeFormatAndMount(HostMounts mounts) {
        this.mounts = mounts;
    }

    public void formatAndMount(Path device, Path target, String fsType, List<String> options) throws MountException {
        String existing = diskFormat(device);
        if (existing.isEmpty()) {
            List<String> mkfs = new ArrayList<>(List.of("mkfs." + fsType));
            if (fsType.startsWith("ext")) {
                mkfs.addAll(List.of("-F", "-m0"));
            }
            mkfs.add(device.toString());
            String failure = run(mkfs);
            if (failure != null) {
                throw new MountException("format of disk \"" + device + "\" failed: type:(\"" + fsType + "\") target:(\""
                        + target + "\") options:(\"" + String.join(",", options) + "\") errcode:(" + failure + ")");
            }
            existing = fsType;
        }
        try {
            Files.createDirectories(target);
        } catch (IOException e) {
            throw new MountException("mkdir " + target + ": " + e.getMessage());
        }
        mounts.mount(device.toString(), target, existing, options);
    }

    /** Upstream {@code GetDiskFormat}: the file system {@code blkid} sees on the device, "" for none. */
    private static String diskFormat(Path device) throws MountException {
        try {
            Process p = new ProcessBuilder("blkid", "-p", "-s", "TYPE", "-s", "PTTYPE", "-o", "export", device.toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int code = p.waitFor();
            if (code == 2) {
                return ""; // nothing found: an unformatted device
            }
            if (code != 0) {
                throw new MountException("blkid " + device + " failed: exit status " + code + ": " + out.trim());
            }
            for (String line : out.split("\n")) {
                if (line.startsWith("PTTYPE=")) {
                    throw new MountException("disk " + device + " has a partition table: " + line.substring(7));
                }
            }
            for (String line : out.split("\n")) {
                if (line.startsWith("TYPE=")) {
                    return line.substring(5).trim();
                }
            }
            return "";
        } catch (IOException e) {
            throw new MountException("blkid " + device + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MountException("blkid " + device + ": interrupted");
        }
    }

    private static String run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int code = p.waitFor();
            return code == 0 ? null : "exit status " + code + ", output: " + out.trim();
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
