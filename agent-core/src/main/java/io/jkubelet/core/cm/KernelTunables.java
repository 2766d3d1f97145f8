package io.jkubelet.core.cm;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel settings the kubelet relies on (upstream {@code setupKernelTunables}, run by the container manager at
 * start): memory overcommit always allowed and no panic on OOM (so the OOM killer, not a reboot, answers memory
 * pressure), a reboot 10 s after a panic and a panic on oops, and the root keyring large enough for one key per
 * container. With {@code protectKernelDefaults} a value that differs stops the kubelet; without it the kubelet sets
 * the value itself, and a write that fails stops it too, as upstream's does.
 */
public final class KernelTunables {
    private static final Logger log = LoggerFactory.getLogger(KernelTunables.class);

    /** Upstream's desired state, by sysctl path below {@code /proc/sys}, in upstream's order of declaration. */
    static final Map<String, Integer> DESIRED = desired();

    private KernelTunables() {}

    private static Map<String, Integer> desired() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("vm/overcommit_memory", 1);
        m.put("vm/panic_on_oom", 0);
        m.put("kernel/panic", 10);
        m.put("kernel/panic_on_oops", 1);
        m.put("kernel/keys/root_maxkeys", 1_000_000);
        m.put("kernel/keys/root_maxbytes", 25_000_000);
        return m;
    }

    /**
     * Checks (with {@code protectKernelDefaults}) or sets each tunable below {@code procSys}.
     *
     * @throws IllegalStateException naming every tunable that could not be read, differs (protected) or could not be
     *         written, in upstream's words ({@code invalid kernel flag: vm/overcommit_memory, expected value: 1,
     *         actual value: 0})
     */
    public static void setUp(Path procSys, boolean protectKernelDefaults) {
        List<String> errors = new ArrayList<>();
        DESIRED.forEach((flag, expected) -> {
            Path file = procSys.resolve(flag);
            int actual;
            try {
                actual = Integer.parseInt(Files.readString(file, StandardCharsets.US_ASCII).strip());
            } catch (IOException | NumberFormatException e) {
                errors.add("cannot read kernel flag " + flag + " (" + file + "): " + e.getMessage());
                return;
            }
            if (actual == expected) {
                return;
            }
            if (protectKernelDefaults) {
                errors.add("invalid kernel flag: " + flag + ", expected value: " + expected + ", actual value: " + actual);
                return;
            }
            log.info("Updating kernel flag {}: expected value {}, actual value {}", flag, expected, actual);
            try {
                Files.writeString(file, Integer.toString(expected), StandardCharsets.US_ASCII);
            } catch (IOException e) {
                errors.add("cannot set kernel flag " + flag + " to " + expected + " (" + file + "): " + e.getMessage()
                        + "; set it on the host or set protectKernelDefaults (--protect-kernel-defaults) to true to have"
                        + " it checked instead");
            }
        });
        if (!errors.isEmpty()) {
            throw new IllegalStateException(errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
        }
    }
}
