package io.jkubelet.core.config.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuantityFormatTest {

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({"1, 1", "100m, 0.1", "1.5, 1.5", ".5, 0.5", "2., 2", "+3, 3", "-1, -1", "1Ki, 1024",
            "128Mi, 134217728", "1G, 1000000000", "1e3, 1000", "5E-2, 0.05", "250u, 0.00025", "7n, 0.000000007",
            "1Ei, 1152921504606846976"})
    void parses(String text, String value) {
        assertThat(QuantityFormat.parse(text)).isEqualByComparingTo(new BigDecimal(value));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"abc, " + "format", "'', format", "1.2.3, format", "., format", "1Qi, format", "true, format",
            "1 Gi, format", "1ki, suffix", "1Mm, suffix", "1mi, suffix"})
    void refuses(String text, String which) {
        assertThatThrownBy(() -> QuantityFormat.parse(text))
                .hasMessage(which.equals("format") ? QuantityFormat.FORMAT_ERROR : QuantityFormat.SUFFIX_ERROR);
    }
}
