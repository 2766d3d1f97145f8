package io.jkubelet.core.dns;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The periodic check of the host's resolver file against the search limits (upstream CheckLimitsForResolvConf). */
class ResolvConfLimitsTest {
    @TempDir Path dir;

    private String file(String searchLine) throws IOException {
        return Files.writeString(dir.resolve("resolv.conf"), "nameserver 10.0.0.2\nsearch " + searchLine + "\n")
                .toString();
    }

    private static String domains(int count, int length) {
        return IntStream.range(0, count).mapToObj(i -> String.format("%0" + length + "d", i))
                .collect(Collectors.joining(" "));
    }

    @Test
    void aFileWithinTheLimitsSaysNothing() throws IOException {
        assertThat(ResolvConfLimits.check(file("corp.example"), "cluster.local")).isEmpty();
        assertThat(ResolvConfLimits.check(file(domains(32, 4)), "")).isEmpty();
    }

    @Test
    void eachLimitIsNamedWithTheFile() throws IOException {
        String tooMany = file(domains(30, 4));
        assertThat(ResolvConfLimits.check(tooMany, "cluster.local")).contains("Resolv.conf file '" + tooMany
                + "' contains search line consisting of more than 29 domains!");
        String tooLong = file("a".repeat(254));
        assertThat(ResolvConfLimits.check(tooLong, "")).contains("Resolv.conf file \"" + tooLong
                + "\" contains a search path which length is more than allowed 253 chars!");
        String tooLongInAll = file(domains(20, 110));
        assertThat(ResolvConfLimits.check(tooLongInAll, "")).contains("Resolv.conf file '" + tooLongInAll
                + "' contains search line which length is more than allowed 2048 chars!");
        assertThat(ResolvConfLimits.check(dir.resolve("gone").toString(), ""))
                .contains("open " + dir.resolve("gone") + ": no such file or directory");
    }
}
