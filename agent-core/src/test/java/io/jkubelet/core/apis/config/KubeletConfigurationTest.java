package io.jkubelet.core.apis.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What the running kubelet gets: a configuration that nothing can change once it is loaded, printed by
 * {@code /configz} byte for byte as pinned here.
 */
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
        List<String> declared = Arrays.stream(KubeletConfiguration.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(JsonProperty.class))
                .map(m -> m.getAnnotation(JsonProperty.class).value())
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

    @Test
    void noTypeInAConfigurationHasAMethodThatChangesIt() throws Exception {
        KubeletConfiguration config = everyField();
        Set<Class<?>> types = reachable(config).values().stream().map(Object::getClass)
                .filter(KubeletConfigurationTest::isConfigType).collect(Collectors.toSet());
        assertThat(types).contains(config.getClass(), config.authentication().anonymous().getClass(),
                config.logging().getClass(), LoggingConfiguration.OutputRoutingOptions.class, Taint.class,
                MemoryReservation.class, TimeOrMetaDuration.class);

        for (Class<?> type : types) {
            assertThat(Arrays.stream(type.getMethods())
                    .filter(m -> !Modifier.isStatic(m.getModifiers()) && m.getParameterCount() > 0)
                    .filter(m -> m.getDeclaringClass() != Object.class && !m.getName().equals("equals"))
                    .map(Method::toGenericString))
                    .as("public methods of %s that take an argument", type.getName())
                    .isEmpty();
        }
    }

    @Test
    void everyCollectionInAConfigurationIsUnmodifiable() throws Exception {
        Map<String, Object> values = reachable(everyField());
        Map<String, Object> collections = new LinkedHashMap<>();
        values.forEach((path, value) -> {
            if (value instanceof List<?> || value instanceof Map<?, ?>) {
                collections.put(path, value);
            }
        });
        assertThat(collections).containsKeys("clusterDNS", "evictionHard", "featureGates", "registerWithTaints",
                "staticPodURLHeader", "staticPodURLHeader.X-A", "reservedMemory[1].limits", "logging.vmodule");

        collections.forEach((path, collection) -> {
            if (collection instanceof List<?> list) {
                assertThatThrownBy(() -> list.add(null)).as(path).isInstanceOf(UnsupportedOperationException.class);
            } else if (collection instanceof Map<?, ?> map) {
                assertThatThrownBy(() -> map.put(null, null)).as(path)
                        .isInstanceOf(UnsupportedOperationException.class);
            }
        });
    }

    @Test
    void aBuilderStartedFromAConfigurationLeavesItAsItWas() throws Exception {
        KubeletConfiguration config = everyField();
        String before = KubeletConfigCodec.toJson(config);

        KubeletConfiguration.Builder builder = KubeletConfiguration.builder().from(config)
                .port(1).addClusterDNS("10.0.0.1").putEvictionHard("pid.available", "5%");
        builder.authenticationBuilder().anonymousBuilder().enabled(false);
        builder.loggingBuilder().verbosity(9);
        KubeletConfiguration changed = builder.build();

        assertThat(KubeletConfigCodec.toJson(config)).isEqualTo(before);
        assertThat(changed.port()).isEqualTo(1);
        assertThat(changed.authentication().anonymous().enabled()).isFalse();
    }

    private static KubeletConfiguration everyField() throws Exception {
        return KubeletConfigFile.load(resource(EVERY_FIELD));
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(KubeletConfigurationTest.class.getResource(name).toURI());
    }

    /** Every value reachable from {@code config} through accessors, list elements and map values, by path. */
    private static Map<String, Object> reachable(KubeletConfiguration config) {
        Map<String, Object> values = new LinkedHashMap<>();
        visit("", config, values);
        return values;
    }

    private static void visit(String path, Object value, Map<String, Object> values) {
        if (value == null) {
            return;
        }
        values.put(path, value);
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                visit(path + "[" + i + "]", list.get(i), values);
            }
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((key, element) -> visit(path + "." + key, element, values));
        } else if (isConfigType(value.getClass())) {
            for (Method accessor : value.getClass().getMethods()) {
                if (!Modifier.isStatic(accessor.getModifiers()) && accessor.getParameterCount() == 0
                        && isConfigType(accessor.getDeclaringClass())
                        && !Set.of("toString", "hashCode").contains(accessor.getName())) {
                    visit(path.isEmpty() ? accessor.getName() : path + "." + accessor.getName(),
                            invoke(accessor, value), values);
                }
            }
        }
    }

    private static boolean isConfigType(Class<?> type) {
        return type.getPackage() == KubeletConfiguration.class.getPackage();
    }

    private static Object invoke(Method accessor, Object target) {
        try {
            return accessor.invoke(target);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new AssertionError(accessor.toString(), e);
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
