package io.jkubelet.cmd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How long ago this process started, to the kernel's clock tick, for the start-up lines of the log.
 * {@code ProcessHandle}'s start instant adds the process's start tick to the boot time of {@code /proc/stat}, which is
 * whole seconds: a process started 0.25 s ago logged "1002 ms after process start". Here the start tick is taken from
 * the time since boot of {@code /proc/uptime} (hundredths of a second) instead.
 */
final class ProcessAge {
    /** {@code /proc}'s clock ticks per second ({@code USER_HZ}), 100 on every Linux architecture the JDK runs on. */
    private static final int TICKS_PER_SECOND = 100;

    private ProcessAge() {
    }

    /** Milliseconds since this process started, or -1 when {@code /proc} cannot tell. */
    static long millis() {
        return millis(Path.of("/proc"));
    }

    static long millis(Path proc) {
        try {
            String stat = Files.readString(proc.resolve("self/stat"));
            String uptime = Files.readString(proc.resolve("uptime"));
            // The fields after the command name, which may hold spaces and parentheses: state is field 3, starttime 22.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            long startTicks = Long.parseLong(fields[22 - 3]);
            double upSeconds = Double.parseDouble(uptime.substring(0, uptime.indexOf(' ')));
            return Math.max(0, Math.round(upSeconds * 1000) - startTicks * 1000 / TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
