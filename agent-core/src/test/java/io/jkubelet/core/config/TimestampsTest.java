package io.jkubelet.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TimestampsTest {

    @ParameterizedTest
    @CsvSource({
            "2024-05-01T10:00:00Z, 2024-05-01T10:00:00Z",
            "2024-05-01T10:00:00.120Z, 2024-05-01T10:00:00.12Z",
            "2024-05-01T10:00:00.000000001Z, 2024-05-01T10:00:00.000000001Z",
            "2024-05-01T10:00:00.123456789Z, 2024-05-01T10:00:00.123456789Z"})
    void formatsAsGoRfc3339Nano(String instant, String expected) {
        assertThat(Timestamps.rfc3339Nano(Instant.parse(instant))).isEqualTo(expected);
    }
}
