package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.JacksonAnnotationIntrospector;
import tools.jackson.databind.node.ObjectNode;

/**
 * A configuration as a JSON tree that holds every field that is set, zero values and empty lists and maps
 * included, and back. Go's {@code omitempty} (what {@code /configz} prints) would drop an {@code evictionHard: {}}
 * or an {@code enforceNodeAllocatable: []} that a file set on purpose; this tree keeps them, so a configuration
 * survives the trip unchanged. Thread-safe.
 */
final class KubeletConfigTree {

    private static final ObjectMapper EVERY_SET_FIELD = KubeletConfigCodec.JSON.rebuild()
            .annotationIntrospector(new JacksonAnnotationIntrospector() {
                @Override
                public JsonInclude.Value findPropertyInclusion(MapperConfig<?> config, Annotated annotated) {
                    // Only "unset" (null) is left out; a map's null values stay, as Go keeps them.
                    return JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.ALWAYS);
                }
            })
            .build();

    private KubeletConfigTree() {
    }

    static ObjectNode of(KubeletConfiguration config) {
        return EVERY_SET_FIELD.valueToTree(config);
    }

    static KubeletConfiguration toConfiguration(ObjectNode tree) throws KubeletConfigCodec.DecodeException {
        try {
            return EVERY_SET_FIELD.treeToValue(tree, KubeletConfiguration.class);
        } catch (JacksonException e) {
            throw new KubeletConfigCodec.DecodeException(e.getOriginalMessage());
        }
    }
}
