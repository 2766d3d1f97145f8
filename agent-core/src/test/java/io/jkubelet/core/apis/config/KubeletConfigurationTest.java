package io.jkubelet.core.apis.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the running kubelet gets: a configuration that {@code /configz} prints byte for byte as pinned here. */
class KubeletConfigurationTest {

    /** Sets every field, nested ones included, to a value other than its default. */
    private static final String EVERY_FIELD = "every-field.json";
    /** What {@code /configz} prints for {@link #EVERY_FIELD}, pretty-printed. */
    private static final String EVERY_FIELD_CONFIGZ = "configz-every-field.json";

    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void theFixtureSetsEveryField() throws Exception {
        List<String> set = new ArrayList<>();
        mapper.readTree(resource(EVERY_FIELD).toFile()).fieldNames().forEachRemaining(set::add);
        List<String> declared = Arrays.stream(KubeletConfiguration.class.getDeclaredFields())
                .filter(f -> f.isAnnotationPresent(JsonProperty.class))
                .map(f -> f.getAnnotation(JsonProperty.class).value())
                .toList();

        assertThat(declared).hasSize(127);
        assertThat(set).containsExactlyInAnyOrderElementsOf(concat(List.of("apiVersion", "kind"), declared));
    }

    @Test
    void aConfigurationWithEveryFieldSetPrintsEachInGoOrderWithGoFormats() throws Exception {
        String expected = mapper.writeValueAsString(mapper.readTree(resource(EVERY_FIELD_CONFIGZ).toFile()));

        KubeletConfiguration config = everyField();

        assertThat(KubeletConfigCodec.toJson(config)).isEqualTo(expected);
        assertThat(KubeletConfigCodec.toVersionedTree(config)).hasToString(
                "{\"kind\":\"KubeletConfiguration\",\"apiVersion\":\"kubelet.config.k8s.io/v1beta1\","
                        + expected.substring(1));
    }

    private static KubeletConfiguration everyField() throws Exception {
        return KubeletConfigFile.load(resource(EVERY_FIELD));
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(KubeletConfigurationTest.class.getResource(name).toURI());
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
