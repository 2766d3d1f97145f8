package io.jkubelet.cmd.certificate;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class RotationDeadlineTest {
    static final Instant NOT_BEFORE = Instant.parse("2026-01-01T00:00:00Z");
    static final Instant NOT_AFTER = NOT_BEFORE.plus(Duration.ofDays(100));

    @Test
    void theDeadlineFallsBetween70And90PercentOfTheLifetime() {
        assertThat(RotationDeadline.of(NOT_BEFORE, NOT_AFTER, 0.0)).isEqualTo(NOT_BEFORE.plus(Duration.ofDays(70)));
        assertThat(RotationDeadline.of(NOT_BEFORE, NOT_AFTER, 0.5)).isEqualTo(NOT_BEFORE.plus(Duration.ofDays(80)));
        assertThat(RotationDeadline.of(NOT_BEFORE, NOT_AFTER, 0.999999))
                .isBefore(NOT_BEFORE.plus(Duration.ofDays(90))).isAfter(NOT_BEFORE.plus(Duration.ofDays(89)));
    }

    @Test
    void aBackdatedShortCertificateIsDueSoonAfterItsIssue() {
        // The controller manager's signer backdates by 5 minutes: 8 minutes of signing duration are 3 from issue.
        Instant issued = NOT_BEFORE.plus(Duration.ofMinutes(5));
        Instant deadline = RotationDeadline.of(NOT_BEFORE, NOT_BEFORE.plus(Duration.ofMinutes(8)), 0.0);
        assertThat(Duration.between(issued, deadline)).isEqualTo(Duration.ofSeconds(36));
    }
}
