package io.jkubelet.server.stats;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class PromTextTest {

    @ParameterizedTest
    @CsvSource({
            "0, 0", "1, 1", "2.5, 2.5", "10, 10", "123456, 123456", "1234567, 1.234567e+06", "67108864, 6.7108864e+07",
            "0.0001, 0.0001", "0.00001, 1e-05", "0.017602985, 0.017602985", "1764748800.5, 1.7647488005e+09",
            "-3.5, -3.5", "999999, 999999", "1000000, 1e+06", "-42, -42", "1e21, 1e+21", "0.005, 0.005", "0.078125, 0.078125", "745.0580596923828, 745.0580596923828"})
    void numbersAreWrittenAsGoFormatsThem(double value, String go) {
        assertThat(PromText.goFloat(value)).isEqualTo(go);
    }

    @Test
    void infinitiesAndNaNAsExpfmtWritesThem() {
        assertThat(PromText.goFloat(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
        assertThat(PromText.goFloat(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
        assertThat(PromText.goFloat(Double.NaN)).isEqualTo("NaN");
    }

    @Test
    void familiesAndSeriesAreSortedAndEmptyFamiliesLeftOut() {
        String text = new String(new PromText()
                .family("b_metric", "gauge", "B help")
                .family("a_metric", "counter", "A\\help\nline")
                .family("empty", "gauge", "never written")
                .add("b_metric", 2, 1700000000000L, "z", "1", "a", "y")
                .add("b_metric", 1, null, "z", "0", "a", "x\"q")
                .add("a_metric", 5, null)
                .toBytes(), StandardCharsets.UTF_8);

        assertThat(text).isEqualTo("""
                # HELP a_metric A\\\\help\\nline
                # TYPE a_metric counter
                a_metric 5
                # HELP b_metric B help
                # TYPE b_metric gauge
                b_metric{a="x\\"q",z="0"} 1
                b_metric{a="y",z="1"} 2 1700000000000
                """);
    }
}
