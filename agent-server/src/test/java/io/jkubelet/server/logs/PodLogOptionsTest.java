package io.jkubelet.server.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodLogOptionsTest {

    private static Map<String, List<String>> query(String... kv) {
        Map<String, List<String>> q = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            q.computeIfAbsent(kv[i], k -> new java.util.ArrayList<>()).add(kv[i + 1]);
        }
        return q;
    }

    @Test
    void booleansAreFalseOnlyWhenAbsentFalseOrZero() throws Exception {
        assertThat(PodLogOptions.decode(query()).follow()).isFalse();
        assertThat(PodLogOptions.decode(query("follow", "")).follow()).isTrue();
        assertThat(PodLogOptions.decode(query("follow", "yes")).follow()).isTrue();
        assertThat(PodLogOptions.decode(query("follow", "FALSE")).follow()).isFalse();
        assertThat(PodLogOptions.decode(query("follow", "0")).follow()).isFalse();
        assertThat(PodLogOptions.decode(query("previous", "1", "timestamps", "true")))
                .satisfies(o -> assertThat(o.previous()).isTrue())
                .satisfies(o -> assertThat(o.timestamps()).isTrue());
    }

    @Test
    void numbersTakeTheFirstValueAndGoSyntax() throws Exception {
        assertThat(PodLogOptions.decode(query("tailLines", "5", "tailLines", "7")).tailLines()).isEqualTo(5);
        assertThat(PodLogOptions.decode(query("limitBytes", "+12")).limitBytes()).isEqualTo(12);
        assertThat(PodLogOptions.decode(query("tailLines", "-3")).tailLines()).isEqualTo(-3);
        assertThatThrownBy(() -> PodLogOptions.decode(query("tailLines", " 5"))).hasMessageContaining("tailLines");
        assertThatThrownBy(() -> PodLogOptions.decode(query("limitBytes", "99999999999999999999"))).hasMessageContaining("limitBytes");
    }

    @Test
    void legacyTailReplacesTailLines() throws Exception {
        assertThat(PodLogOptions.decode(query("tail", "3", "tailLines", "9")).tailLines()).isEqualTo(3);
        assertThat(PodLogOptions.decode(query("tail", "all", "tailLines", "9")).tailLines()).isNull();
        assertThat(PodLogOptions.decode(query("tail", "", "tailLines", "9")).tailLines()).isEqualTo(9);
    }

    @Test
    void anEmptySinceTimeIsGosZeroTimeAndStillCountsAsGiven() throws Exception {
        PodLogOptions o = PodLogOptions.decode(query("sinceTime", "", "sinceSeconds", "5"));

        assertThat(o.sinceTime()).isEqualTo(PodLogOptions.ZERO_TIME);
        assertThat(o.validate()).containsExactly("Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified");
    }

    @Test
    void sinceIsTheLaterOfSinceSecondsAndSinceTime() throws Exception {
        Instant now = Instant.parse("2024-05-01T10:00:00Z");

        assertThat(PodLogOptions.decode(query("sinceSeconds", "60")).since(now)).isEqualTo(Instant.parse("2024-05-01T09:59:00Z"));
        assertThat(PodLogOptions.decode(query("sinceTime", "2024-05-01T11:00:00+02:00")).since(now))
                .isEqualTo(Instant.parse("2024-05-01T09:00:00Z"));
        assertThat(PodLogOptions.decode(query()).since(now)).isNull();
    }

    @Test
    void validationListsEveryProblem() throws Exception {
        assertThat(PodLogOptions.decode(query("tailLines", "-1", "limitBytes", "0", "sinceSeconds", "0")).validate())
                .containsExactly(
                        "tailLines: Invalid value: -1: must be greater than or equal to 0",
                        "limitBytes: Invalid value: 0: must be greater than 0",
                        "sinceSeconds: Invalid value: 0: must be greater than 0");
        assertThat(PodLogOptions.decode(query("tailLines", "0", "limitBytes", "1", "sinceSeconds", "1", "stream", "All")).validate())
                .isEmpty();
    }
}
