package io.jkubelet.cmd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessAgeTest {
    @TempDir
    Path proc;

    @Test
    void theAgeIsTheTimeSinceBootLessTheStartTickToTheHundredthOfASecond() throws IOException {
        Files.createDirectories(proc.resolve("self"));
        // A command name with a space and a parenthesis, started 12345.67 s after boot (tick 1234567).
        Files.writeString(proc.resolve("self/stat"), "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 20 0 0 0 3 1 0 0 20 0 "
                + "30 0 1234567 8000000 2000 18446744073709551615 1 1 0 0 0 0 0 4096 16384 0 0 0 17 1 0 0 0 0 0\n");
        Files.writeString(proc.resolve("uptime"), "12345.92 20000.00\n");

        assertThat(ProcessAge.millis(proc)).isEqualTo(250);
    }

    @Test
    void withoutProcTheAgeIsUnknown() {
        assertThat(ProcessAge.millis(proc.resolve("missing"))).isEqualTo(-1);
    }

    @Test
    void thisProcessIsOlderThanZeroAndYoungerThanTheMachine() throws IOException {
        long age = ProcessAge.millis();
        String uptime = Files.readString(Path.of("/proc/uptime"));
        long up = Math.round(Double.parseDouble(uptime.substring(0, uptime.indexOf(' '))) * 1000);

        assertThat(age).isPositive().isLessThanOrEqualTo(up);
    }
}
