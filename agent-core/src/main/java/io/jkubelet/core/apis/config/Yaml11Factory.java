package io.jkubelet.core.apis.config;

import java.io.CharArrayReader;
import java.io.InputStream;
import java.io.Reader;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.ConstructNode;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;
import org.snakeyaml.engine.v2.schema.Schema;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.io.IOContext;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLParser;
import tools.jackson.dataformat.yaml.YAMLReadFeature;

/**
 * A Jackson 3 YAML factory that reads plain scalars as YAML 1.1 does, the way the kubelet's {@code sigs.k8s.io/yaml}
 * (go-yaml v2) reads a configuration file: {@code yes}/{@code no}/{@code on}/{@code off} (in the three spellings
 * {@code yes}, {@code Yes}, {@code YES}) are booleans, {@code 0755} is octal, {@code 0x1F} hexadecimal, {@code 0b101}
 * binary, {@code 1_000} is 1000, {@code ~} and {@code Null} are null. snakeyaml-engine, under Jackson 3, would read
 * all of these as YAML 1.2 strings, so a file that a kubelet accepts ({@code failSwapOn: no}) would be refused.
 *
 * <p>The rules are SnakeYAML's YAML 1.1 resolver's, which Jackson 2 read these files with until now: the same
 * patterns, tried in the same order for a scalar's first character. {@code .inf} and {@code .nan} stay errors, as
 * they are upstream (Go's JSON encoder refuses them when the YAML is turned into JSON). Thread-safe.
 */
public final class Yaml11Factory extends YAMLFactory {

    private static final long serialVersionUID = 1L;

    public Yaml11Factory() {
        super(YAMLFactory.builder()
                .loadSettings(LoadSettings.builder().setSchema(new Yaml11Schema()).build())
                .enable(YAMLReadFeature.PARSE_OCTAL_NUMBERS));
    }

    private Yaml11Factory(Yaml11Factory src) {
        super(src);
    }

    @Override
    public YAMLFactory copy() {
        return new Yaml11Factory(this);
    }

    @Override
    protected YAMLParser _createParser(ObjectReadContext readCtxt, IOContext ioCtxt, InputStream in) {
        return parser(readCtxt, ioCtxt, _createReader(in, null, ioCtxt));
    }

    @Override
    protected YAMLParser _createParser(ObjectReadContext readCtxt, IOContext ioCtxt, Reader r) {
        return parser(readCtxt, ioCtxt, r);
    }

    @Override
    protected YAMLParser _createParser(ObjectReadContext readCtxt, IOContext ioCtxt, char[] data, int offset,
            int len, boolean recyclable) {
        return parser(readCtxt, ioCtxt, new CharArrayReader(data, offset, len));
    }

    @Override
    protected YAMLParser _createParser(ObjectReadContext readCtxt, IOContext ioCtxt, byte[] data, int offset,
            int len) {
        return parser(readCtxt, ioCtxt, _createReader(data, offset, len, null, ioCtxt));
    }

    private YAMLParser parser(ObjectReadContext readCtxt, IOContext ioCtxt, Reader reader) {
        return new Yaml11Parser(readCtxt, ioCtxt, this, reader);
    }

    /** Jackson's YAML parser with YAML 1.1's boolean words, and {@code .inf}/{@code .nan} refused. */
    private static final class Yaml11Parser extends YAMLParser {
        private static final Pattern INFINITY_OR_NAN = Pattern.compile("[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)");

        Yaml11Parser(ObjectReadContext readCtxt, IOContext ioCtxt, Yaml11Factory factory, Reader reader) {
            super(readCtxt, ioCtxt, factory._getBufferRecycler(),
                    readCtxt.getStreamReadFeatures(factory._streamReadFeatures),
                    readCtxt.getFormatReadFeatures(factory._formatReadFeatures), factory._loadSettings, reader);
        }

        @Override
        protected JsonToken _decodeScalar(ScalarEvent scalar) throws JacksonException {
            JsonToken token = super._decodeScalar(scalar);
            if (token == JsonToken.VALUE_NUMBER_FLOAT && INFINITY_OR_NAN.matcher(scalar.getValue()).matches()) {
                throw _constructReadException("Malformed numeric value '" + scalar.getValue() + "'");
            }
            return token;
        }

        /** Reached only for a scalar {@link Yaml11Resolver} resolved as a boolean. */
        @Override
        protected Boolean _matchYAMLBoolean(String value, int len) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "yes", "true", "on" -> Boolean.TRUE;
                case "no", "false", "off" -> Boolean.FALSE;
                default -> null;
            };
        }
    }

    /** YAML 1.1's implicit types; only the tags Jackson's parser acts on (int, float, bool, null) are resolved. */
    static final class Yaml11Schema implements Schema {
        @Override
        public ScalarResolver getScalarResolver() {
            return Yaml11Resolver.INSTANCE;
        }

        @Override
        public Map<Tag, ConstructNode> getSchemaTagConstructors() {
            return Map.of();
        }
    }

    /**
     * SnakeYAML's YAML 1.1 resolver: a plain scalar is matched against the patterns registered for its first
     * character, in order (bool, int, float, null); an empty one is null; anything else (timestamps and merge keys
     * included, which Jackson reads as text anyway) is a string.
     */
    static final class Yaml11Resolver implements ScalarResolver {
        static final Yaml11Resolver INSTANCE = new Yaml11Resolver();

        private static final Pattern BOOL =
                Pattern.compile("^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$");
        private static final Pattern INT = Pattern.compile("^(?:[-+]?0b_*[0-1][0-1_]*|[-+]?0_*[0-7][0-7_]*"
                + "|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x_*[0-9a-fA-F][0-9a-fA-F_]*|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$");
        private static final Pattern FLOAT = Pattern.compile("^([-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+]?[0-9]+)?"
                + "|[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)|[-+]?\\.[0-9_]+(?:[eE][-+]?[0-9]+)?"
                + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$");
        private static final Pattern NULL = Pattern.compile("^(?:~|null|Null|NULL| )$");
        /** SnakeYAML tries the number patterns on scalars up to this long only; a longer one stays a string. */
        private static final int NUMBER_LIMIT = 1024;
        private static final int WORD_LIMIT = 10;

        @Override
        public Tag resolve(String value, Boolean implicit) {
            if (!Boolean.TRUE.equals(implicit)) {
                return Tag.STR;
            }
            if (value.isEmpty()) {
                return Tag.NULL;
            }
            int length = value.length();
            char first = value.charAt(0);
            if ("yYnNtTfFoO".indexOf(first) >= 0 && length <= WORD_LIMIT && BOOL.matcher(value).matches()) {
                return Tag.BOOL;
            }
            if ("-+0123456789".indexOf(first) >= 0 && length <= NUMBER_LIMIT && INT.matcher(value).matches()) {
                return Tag.INT;
            }
            if ("-+0123456789.".indexOf(first) >= 0 && length <= NUMBER_LIMIT && FLOAT.matcher(value).matches()) {
                return Tag.FLOAT;
            }
            if ("~nN".indexOf(first) >= 0 && length <= WORD_LIMIT && NULL.matcher(value).matches()) {
                return Tag.NULL;
            }
            return Tag.STR;
        }
    }
}
