package io.jkubelet.core.stats;

import io.jkubelet.core.runtime.RuntimeProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The pid of the container runtime's daemon, found as upstream's container manager finds it
 * ({@code getPidsForProcess}): the pid in its pid file when that process runs, else the first process whose
 * executable has its name ({@code procfs.PidOf}, which matches {@code (^|/)name$} against the first word of the
 * command line). A pid found by name is kept while that process runs, so that a stats round does not read every
 * process's command line. Empty while no such process runs. Thread-safe.
 */
final class RuntimeProcessLookup implements Supplier<OptionalLong> {

    private final RuntimeProcess process;
    private final Path proc;
    /** The pid last found by name; -1 for none. */
    private long byName = -1;

    RuntimeProcessLookup(RuntimeProcess process, Path proc) {
        this.process = process;
        this.proc = proc;
    }

    @Override
    public synchronized OptionalLong get() {
        OptionalLong fromFile = process.pidFile().map(this::readPid).orElse(OptionalLong.empty());
        if (fromFile.isPresent() && Files.isDirectory(proc.resolve(Long.toString(fromFile.getAsLong())))) {
            return fromFile;
        }
        if (byName < 0 || !isNamed(byName)) {
            byName = pidOf();
        }
        return byName < 0 ? OptionalLong.empty() : OptionalLong.of(byName);
    }

    /** The lowest pid whose executable has the process's name (upstream takes the first that {@code /proc} lists). */
    private long pidOf() {
        long found = -1;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc)) {
            for (Path entry : entries) {
                long pid = pid(entry.getFileName().toString());
                if (pid >= 0 && (found < 0 || pid < found) && isNamed(pid)) {
                    found = pid;
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return found;
    }

    /** Whether {@code pid}'s command line starts with the process's executable, by path or by name. */
    private boolean isNamed(long pid) {
        byte[] cmdline;
        try {
            cmdline = Files.readAllBytes(proc.resolve(Long.toString(pid)).resolve("cmdline"));
        } catch (IOException e) {
            return false; // gone, or a kernel thread's
        }
        int end = 0;
        while (end < cmdline.length && cmdline[end] != 0) {
            end++;
        }
        String first = new String(cmdline, 0, end, StandardCharsets.UTF_8).strip().split("[\\s:]", 2)[0];
        return first.equals(process.name()) || first.endsWith("/" + process.name());
    }

    private OptionalLong readPid(Path file) {
        try {
            return OptionalLong.of(Long.parseLong(Files.readString(file).trim()));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static long pid(String name) {
        for (int i = 0; i < name.length(); i++) {
            if (!Character.isDigit(name.charAt(i))) {
                return -1;
            }
        }
        return name.isEmpty() ? -1 : Long.parseLong(name);
    }
}
