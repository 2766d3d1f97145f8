package io.jkubelet.core.cm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * protectKernelDefaults as upstream's setupKernelTunables: true checks the six tunables and stops the kubelet on one
 * that differs; false sets them.
 */
class KernelTunablesTest {
    @TempDir
    Path procSys;

    private void write(Map<String, Integer> values) throws Exception {
        for (var e : values.entrySet()) {
            Path file = procSys.resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue() + "\n");
        }
    }

    private int read(String flag) throws Exception {
        return Integer.parseInt(Files.readString(procSys.resolve(flag)).strip());
    }

    @Test
    void protectKernelDefaultsAcceptsAKernelWithUpstreamsValues() throws Exception {
        write(KernelTunables.DESIRED);

        assertThatCode(() -> KernelTunables.setUp(procSys, true)).doesNotThrowAnyException();
    }

    @Test
    void protectKernelDefaultsStopsTheKubeletOnEveryValueThatDiffers() throws Exception {
        write(KernelTunables.DESIRED);
        write(Map.of("vm/overcommit_memory", 0, "kernel/panic", 0));

        assertThatThrownBy(() -> KernelTunables.setUp(procSys, true)).isInstanceOf(IllegalStateException.class)
                .hasMessage("[invalid kernel flag: vm/overcommit_memory, expected value: 1, actual value: 0, "
                        + "invalid kernel flag: kernel/panic, expected value: 10, actual value: 0]");
        assertThat(read("vm/overcommit_memory")).as("protected: checked, not changed").isZero();
    }

    @Test
    void withoutProtectKernelDefaultsTheKubeletSetsTheValues() throws Exception {
        write(KernelTunables.DESIRED);
        write(Map.of("vm/overcommit_memory", 0, "kernel/keys/root_maxkeys", 200));

        KernelTunables.setUp(procSys, false);

        assertThat(read("vm/overcommit_memory")).isEqualTo(1);
        assertThat(read("kernel/keys/root_maxkeys")).isEqualTo(1_000_000);
    }

    @Test
    void aTunableThatCannotBeReadStopsTheKubeletNamingIt() throws Exception {
        write(Map.of("vm/overcommit_memory", 1));

        assertThatThrownBy(() -> KernelTunables.setUp(procSys, true)).hasMessageContaining("cannot read kernel flag vm/panic_on_oom");
    }
}
