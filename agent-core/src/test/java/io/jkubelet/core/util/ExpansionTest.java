package io.jkubelet.core.util;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ExpansionTest {
    private static final Map<String, String> VARS = Map.of("A", "1", "B", "two");

    @Test
    void expandsLikeUpstream() {
        String[][] cases = {
                {"$(A)", "1"},
                {"x$(A)y$(B)z", "x1ytwoz"},
                {"$(MISSING)", "$(MISSING)"},
                {"$$(A)", "$(A)"},
                {"$$", "$"},
                {"$(A", "$(A"},
                {"$A", "$A"},
                {"plain", "plain"},
                {"end$", "end$"},
        };
        for (String[] c : cases) {
            assertThat(Expansion.expand(c[0], VARS)).as(c[0]).isEqualTo(c[1]);
        }
    }
}
