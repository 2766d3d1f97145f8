package io.jkubelet.server.json;

import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.Quantity;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.SerializedString;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * The Jackson 3 mapper the HTTP servers write Kubernetes objects with.
 *
 * <p>It names the writing of the value types that need one inside a Pod, so that their form does not hang on how
 * fabric8 annotates them: {@link Quantity} (a string such as {@code "100m"}), {@link AnyType}/{@code IntOrString}
 * (a bare int or string) and {@link MicroTime} (its RFC 3339 string). Properties keep fabric8's declared order (not
 * Jackson 3's alphabetical default), and a character outside the Basic Multilingual Plane is written as its four
 * UTF-8 bytes, as Go's {@code encoding/json} writes it (Jackson 2 wrote a {@code \\uXXXX} surrogate pair).
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
        JsonFactory factory = JsonFactory.builder()
                .characterEscapes(new GoCharacterEscapes())
                .build();
        return JsonMapper.builder(factory)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .addModule(fabric8)
                .build();
    }

    private static final class QuantitySerializer extends StdSerializer<Quantity> {
        QuantitySerializer() {
            super(Quantity.class);
        }

        @Override
        public void serialize(Quantity value, JsonGenerator gen, SerializationContext provider) {
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
        public void serialize(AnyType value, JsonGenerator gen, SerializationContext provider) {
            provider.writeValue(gen, value.getValue());
        }
    }

    private static final class MicroTimeSerializer extends StdSerializer<MicroTime> {
        MicroTimeSerializer() {
            super(MicroTime.class);
        }

        @Override
        public void serialize(MicroTime value, JsonGenerator gen, SerializationContext provider) {
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
