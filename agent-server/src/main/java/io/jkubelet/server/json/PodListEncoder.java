package io.jkubelet.server.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Encodes pods as the kubelet's {@code encodePods} does: a v1 {@code PodList} written by Go's {@code
 * encoding/json} through the legacy v1 codec.
 *
 * <p>That means: {@code {"kind":"PodList","apiVersion":"v1","metadata":{},"items":[...]}} followed by a
 * newline (the codec's {@code json.Encoder} adds it); {@code "items":null} when there are no pods (the
 * kubelet appends to a nil slice); each item without {@code kind}/{@code apiVersion} (pods inside the
 * kubelet carry no type meta, so Go leaves them out); and each pod laid out by {@link GoShapeWriter}.
 *
 * <p>Thread-safe.
 */
public final class PodListEncoder {

    private final ObjectMapper mapper;
    private final GoShapeWriter writer;

    public PodListEncoder() {
        this(KubeJson.mapper(), new GoShapeWriter(GoShapes.pod()));
    }

    PodListEncoder(ObjectMapper mapper, GoShapeWriter writer) {
        this.mapper = mapper;
        this.writer = writer;
    }

    /** The JSON bytes of a PodList holding {@code pods}, in order. */
    public byte[] encode(List<Pod> pods) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024 + pods.size() * 2048);
        try (JsonGenerator gen = mapper.getFactory().createGenerator(out)) {
            gen.writeStartObject();
            gen.writeStringField("kind", "PodList");
            gen.writeStringField("apiVersion", "v1");
            gen.writeFieldName("metadata");
            gen.writeStartObject();
            gen.writeEndObject();
            gen.writeFieldName("items");
            if (pods.isEmpty()) {
                gen.writeNull();
            } else {
                gen.writeStartArray();
                for (Pod pod : pods) {
                    ObjectNode tree = mapper.valueToTree(pod);
                    tree.remove("kind");
                    tree.remove("apiVersion");
                    writer.writeStruct(gen, tree, "Pod");
                }
                gen.writeEndArray();
            }
            gen.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("encoding a PodList of " + pods.size() + " pods", e);
        }
        out.write('\n');
        return out.toByteArray();
    }
}
