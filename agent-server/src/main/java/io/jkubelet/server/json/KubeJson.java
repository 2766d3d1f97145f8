package io.jkubelet.server.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;

/**
 * The Jackson 2 mapper the HTTP servers write Kubernetes objects with.
 *
 * <p>fabric8 8 models carry their custom serializers as Jackson 3 annotations, which Jackson 2 does not
 * see; this mapper registers Jackson 2 serializers for the value types that need one inside a Pod:
 * {@link Quantity} (a string such as {@code "100m"}), {@link AnyType}/{@code IntOrString} (a bare int or
 * string) and {@link MicroTime} (its RFC 3339 string). The other fabric8 annotations ({@code
 * JsonInclude}, {@code JsonProperty}, {@code JsonAnyGetter}) live in the shared annotations package and
 * apply as they are.
 *
 * <p>Strings are escaped as Go's {@code encoding/json} does: {@code <}, {@code >}, {@code &}, U+2028 and
 * U+2029 become {@code \\u003c}, {@code \\u003e}, {@code \\u0026}, {@code \\u2028}, {@code \\u2029}, so
 * our bytes match the kubelet's for the same object.
 *
 * <p>The returned mappers are thread-safe once built, as Jackson mappers are.
 */
public final class KubeJson {

    private static final ObjectMapper MAPPER = newMapper();

    private KubeJson() {}

    /** The shared mapper; do not reconfigure it. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** A new mapper configured as described on this class. */
    public static ObjectMapper newMapper() {
        SimpleModule fabric8 = new SimpleModule("jkubelet-fabric8-values");
        fabric8.addSerializer(Quantity.class, new QuantitySerializer());
        fabric8.addSerializer(AnyType.class, new AnyTypeSerializer());
        fabric8.addSerializer(MicroTime.class, new MicroTimeSerializer());
        ObjectMapper mapper =
                JsonMapper.builder()
                        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                        .addModule(fabric8)
                        .build();
        mapper.getFactory().setCharacterEscapes(new GoCharacterEscapes());
        return mapper;
    }

    private static final class QuantitySerializer extends StdSerializer<Quantity> {
        QuantitySerializer() {
            super(Quantity.class);
        }

        @Override
        public void serialize(Quantity value, JsonGenerator gen, SerializerProvider provider)
                throws IOException {
            String amount = value.getAmount() == null ? "" : value.getAmount();
            String format = value.getFormat() == null ? "" : value.getFormat();
            gen.writeString(amount + format);
        }
    }

    private static final class AnyTypeSerializer extends StdSerializer<AnyType> {
        AnyTypeSerializer() {
            super(AnyType.class);
        }

        @Override
        public void serialize(AnyType value, JsonGenerator gen, SerializerProvider provider)
                throws IOException {
            provider.defaultSerializeValue(value.getValue(), gen);
        }
    }

    private static final class MicroTimeSerializer extends StdSerializer<MicroTime> {
        MicroTimeSerializer() {
            super(MicroTime.class);
        }

        @Override
        public void serialize(MicroTime value, JsonGenerator gen, SerializerProvider provider)
                throws IOException {
            if (value.getTime() == null) {
                gen.writeNull();
            } else {
                gen.writeString(value.getTime());
            }
        }
    }

    /** Go's {@code encoding/json} HTML-safe escaping on top of Jackson's standard escapes. */
    static final class GoCharacterEscapes extends CharacterEscapes {
        private static final int[] ESCAPES;

        static {
            int[] escapes = CharacterEscapes.standardAsciiEscapesForJSON();
            escapes['<'] = CharacterEscapes.ESCAPE_CUSTOM;
            escapes['>'] = CharacterEscapes.ESCAPE_CUSTOM;
            escapes['&'] = CharacterEscapes.ESCAPE_CUSTOM;
            ESCAPES = escapes;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ESCAPES;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return switch (ch) {
                case '<' -> new SerializedString("\\u003c");
                case '>' -> new SerializedString("\\u003e");
                case '&' -> new SerializedString("\\u0026");
                case 0x2028 -> new SerializedString("\\u2028");
                case 0x2029 -> new SerializedString("\\u2029");
                default -> null;
            };
        }
    }
}
