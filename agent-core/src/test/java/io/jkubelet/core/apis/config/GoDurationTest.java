package io.jkubelet.core.apis.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GoDurationTest {

    @ParameterizedTest(name = "{0} parses to {1} ns")
    @CsvSource({
            "0, 0",
            "-0, 0",
            "+0, 0",
            "0s, 0",
            "1ns, 1",
            "1us, 1000",
            "1µs, 1000",
            "1μs, 1000",
            "300ms, 300000000",
            "20s, 20000000000",
            "1m, 60000000000",
            "1m0s, 60000000000",
            "1h30m, 5400000000000",
            "1.5h, 5400000000000",
            "2h45m30.5s, 9930500000000",
            ".5s, 500000000",
            "1.s, 1000000000",
            "-1.5s, -1500000000",
            "+20s, 20000000000",
            "1h1h, 7200000000000",
            "9223372036854775807ns, 9223372036854775807",
            "-9223372036854775808ns, -9223372036854775808",
    })
    void parsesLikeGo(String text, long nanos) {
        assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofNanos(nanos));
    }

    @ParameterizedTest(name = "{0} is rejected with: {1}")
    @CsvSource(delimiter = '|', value = {
            "''| time: invalid duration \"\"",
            "abc| time: invalid duration \"abc\"",
            "-| time: invalid duration \"-\"",
            ".s| time: invalid duration \".s\"",
            "1| time: missing unit in duration \"1\"",
            "10| time: missing unit in duration \"10\"",
            "1x| time: unknown unit \"x\" in duration \"1x\"",
            "1 s| time: unknown unit \" s\" in duration \"1 s\"",
            "1d| time: unknown unit \"d\" in duration \"1d\"",
            "9223372036854775808ns| time: invalid duration \"9223372036854775808ns\"",
            "3000000h| time: invalid duration \"3000000h\"",
    })
    void rejectsLikeGo(String text, String message) {
        assertThatThrownBy(() -> GoDuration.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @ParameterizedTest(name = "{0} ns formats as {1}")
    @CsvSource({
            "0, 0s",
            "1, 1ns",
            "999, 999ns",
            "1000, 1µs",
            "1500, 1.5µs",
            "300000000, 300ms",
            "1500000, 1.5ms",
            "1000000000, 1s",
            "1500000000, 1.5s",
            "20000000000, 20s",
            "60000000000, 1m0s",
            "90000000000, 1m30s",
            "3600000000000, 1h0m0s",
            "5400000000000, 1h30m0s",
            "14400000000000, 4h0m0s",
            "-1500000000, -1.5s",
            "100000000, 100ms",
            "9223372036854775807, 2562047h47m16.854775807s",
            "-9223372036854775808, -2562047h47m16.854775808s",
    })
    void formatsLikeGo(long nanos, String text) {
        assertThat(GoDuration.format(Duration.ofNanos(nanos))).isEqualTo(text);
    }

    @ParameterizedTest
    @CsvSource({"1m0s", "20s", "300ms", "1h30m0s", "2m0s", "4h0m0s", "1.5µs"})
    void formattedValuesParseBack(String text) {
        assertThat(GoDuration.format(GoDuration.parse(text))).isEqualTo(text);
    }
}
