package io.jkubelet.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Annotations measured on the token stream: the pod's own or a list's items', never anything else. */
class AnnotationBudgetTest {
    private static final String BIG = "x".repeat(200 * 1024);

    private static java.util.Optional<String> yaml(String text) {
        return AnnotationBudget.exceeded(text.getBytes(StandardCharsets.UTF_8), false);
    }

    private static java.util.Optional<String> json(String text) {
        return AnnotationBudget.exceeded(text.getBytes(StandardCharsets.UTF_8), true);
    }

    @Test
    void keysAndValuesOfAPodsAnnotationsCountTogether() {
        assertThat(yaml("apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  annotations:\n    a: " + BIG + "\n"))
                .isEmpty();
        assertThat(yaml("metadata:\n  annotations:\n    a: " + BIG + "\n    b: " + BIG + "\n"))
                .contains("metadata.annotations: Too long: must have at most 262144 bytes");
        // Keys count too: 300 of 900 bytes (a YAML key of more than 1024 characters is refused by the parser).
        StringBuilder keys = new StringBuilder("metadata:\n  annotations:\n");
        for (int i = 0; i < 300; i++) {
            keys.append("    k").append(i).append("x".repeat(900)).append(": v\n");
        }
        assertThat(yaml(keys.toString())).isPresent();
        assertThat(json("{\"metadata\": {\"annotations\": {\"a\": \"" + BIG + "\", \"b\": \"" + BIG + "\"}}}"))
                .contains("metadata.annotations: Too long: must have at most 262144 bytes");
    }

    @Test
    void aListsItemsAreMeasuredEachWithItsIndex() {
        String item = "{\"metadata\": {\"annotations\": {\"a\": \"" + BIG + "\"}}}";
        assertThat(json("{\"kind\": \"PodList\", \"items\": [" + item + ", " + item + "]}")).isEmpty();
        String heavy = "{\"metadata\": {\"annotations\": {\"a\": \"" + BIG + "\", \"b\": \"" + BIG + "\"}}}";
        assertThat(json("{\"items\": [" + item + ", " + heavy + "]}"))
                .contains("items[1].metadata.annotations: Too long: must have at most 262144 bytes");
        assertThat(yaml("items:\n- metadata: {name: a}\n- metadata:\n    annotations: {a: " + BIG + ", b: " + BIG + "}\n"))
                .contains("items[1].metadata.annotations: Too long: must have at most 262144 bytes");
    }

    @Test
    void theSameBytesElsewhereAreNotAnnotations() {
        assertThat(yaml("metadata:\n  labels: {a: " + BIG + ", b: " + BIG + "}\nspec:\n  annotations: {a: " + BIG
                + ", b: " + BIG + "}\n")).isEmpty();
        assertThat(json("{\"spec\": {\"metadata\": {\"annotations\": {\"a\": \"" + BIG + "\", \"b\": \"" + BIG + "\"}}}}"))
                .isEmpty();
        // Only the first YAML document is decoded, so only it counts.
        assertThat(yaml("metadata: {name: a}\n---\nmetadata:\n  annotations: {a: " + BIG + ", b: " + BIG + "}\n")).isEmpty();
    }

    @Test
    void malformedInputIsLeftToTheDecoder() {
        assertThat(yaml("metadata: {annotations: [")).isEmpty();
        assertThat(json("{\"metadata\": {\"annotations\": ")).isEmpty();
    }
}
