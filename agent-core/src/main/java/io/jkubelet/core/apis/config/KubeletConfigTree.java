package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A configuration as a JSON tree that holds every field that is set, zero values and empty lists and maps
 * included, and back. Go's {@code omitempty} (what {@code /configz} prints) would drop an {@code evictionHard: {}}
 * or an {@code enforceNodeAllocatable: []} that a file set on purpose; this tree keeps them, so a configuration
 * survives the trip unchanged. Thread-safe.
 */
final class KubeletConfigTree {

    private static final ObjectMapper EVERY_SET_FIELD = KubeletConfigCodec.JSON.copy()
            .setAnnotationIntrospector(new JacksonAnnotationIntrospector() {
                @Override
                public JsonInclude.Value findPropertyInclusion(Annotated annotated) {
                    // Only "unset" (null) is left out; a map's null values stay, as Go keeps them.
                    return JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.ALWAYS);
                }
            });

    private KubeletConfigTree() {
    }

    static ObjectNode of(KubeletConfiguration config) {
        return EVERY_SET_FIELD.valueToTree(config);
    }

    static KubeletConfiguration toConfiguration(ObjectNode tree) throws KubeletConfigCodec.DecodeException {
        try {
            return EVERY_SET_FIELD.treeToValue(tree, KubeletConfiguration.class);
        } catch (JsonProcessingException e) {
            throw new KubeletConfigCodec.DecodeException(e.getOriginalMessage());
        }
    }
}
