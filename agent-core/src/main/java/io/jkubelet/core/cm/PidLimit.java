package io.jkubelet.core.cm;

import io.jkubelet.cadvisor.PseudoFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * How many processes the node can hold (upstream {@code pidlimit.Stats}): the smaller of {@code kernel.pid_max}
 * and {@code kernel.threads-max}, both system-wide limits on tasks. It is the {@code pid} capacity that
 * {@code kubeReserved}/{@code systemReserved} {@code pid} entries are taken from for the {@code kubepods} cgroup.
 */
public final class PidLimit {
    private PidLimit() {}

    /** @param procSysKernel {@code /proc/sys/kernel} */
    public static OptionalLong maxPids(Path procSysKernel) {
        OptionalLong max = OptionalLong.empty();
        for (String file : new String[] {"pid_max", "threads-max"}) {
            try {
                long limit = Long.parseLong(PseudoFiles.read(procSysKernel.resolve(file)).strip());
                if (max.isEmpty() || limit < max.getAsLong()) {
                    max = OptionalLong.of(limit);
                }
            } catch (IOException | NumberFormatException e) {
                // not readable here: the other limit, or none
            }
        }
        return max;
    }
}
