package io.jkubelet.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jkubelet.core.apis.config.KubeletConfigCodec;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --help} says, for every flag that sets something, the default the agent applies: giving a flag the value its
 * help shows as its default (or, where the help shows none, its type's zero value, which is what pflag's help leaves
 * out) changes nothing the agent runs with.
 */
class HelpDefaultsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** One flag's line of the help, unwrapped: its names, value label, then its description. */
    private static final Pattern FLAG_LINE = Pattern.compile("^\\s+(?:-\\w, )?--([a-z0-9-]+)[=\\[ ]");
    private static final Pattern DEFAULT = Pattern.compile(" \\(default (.*?)\\)(?: \\(DEPRECATED: .*)?$");

    @Test
    void everyFlagsHelpDefaultIsTheDefaultTheAgentApplies() throws Exception {
        Map<String, String> shown = helpDefaults();
        KubeletServer applied = run(List.of());
        List<String> differ = new ArrayList<>();
        for (FlagSpec flag : KubeletFlagSpecs.settingFlags()) {
            String value = shown.containsKey(flag.name()) ? asFlagValue(shown.get(flag.name())) : zeroValue(flag);
            String arg = "--" + flag.name() + "=" + value;
            try {
                KubeletServer given = run(List.of(arg));
                if (isConfigFlag(flag) ? !sameConfig(given, applied) : !given.flags().equals(applied.flags())) {
                    differ.add(arg);
                }
            } catch (FlagsException e) {
                // A flag that refuses its type's zero value (a map or list of pairs given nothing) must start empty.
                if (shown.containsKey(flag.name()) || !isConfigFlag(flag) || !isEmpty(configFlag(flag).field()
                        .apply(applied.config()))) {
                    differ.add(arg + ": " + e.getMessage());
                }
            }
        }
        assertThat(differ).as("flags whose help default is not the default applied").isEmpty();
        assertThat(shown).as("defaults the help shows").containsEntry("port", "10250")
                .containsEntry("read-only-port", "10255").containsEntry("anonymous-auth", "true")
                .containsEntry("authorization-mode", "\"AlwaysAllow\"").containsEntry("enforce-node-allocatable", "[pods]")
                .containsEntry("eviction-hard", "imagefs.available<15%,memory.available<100Mi,nodefs.available<10%,"
                        + "nodefs.inodesFree<5%")
                .containsEntry("root-dir", "\"/var/lib/kubelet\"").containsEntry("maximum-dead-containers", "-1")
                .doesNotContainKeys("authentication-token-webhook", "cadvisor-port", "v");
    }

    @Test
    void aHelpDefaultIsTheFieldsValueAsPflagPrintsIt() {
        KubeletConfiguration defaults = ConfigFlagDefaults.newKubeletConfiguration();
        Map<String, String> byName = new LinkedHashMap<>();
        KubeletFlagSpecs.forHelp(defaults).forEach(flag -> byName.put(flag.name(), flag.usage()));

        assertThat(byName.get("sync-frequency")).endsWith("config. (default 1m0s) (DEPRECATED: "
                + ConfigFlags.USE_CONFIG_FILE + ")");
        assertThat(byName.get("container-runtime-endpoint")).contains("(default \"unix:///var/run/docker.sock\")");
        assertThat(byName.get("healthz-bind-address")).as("an ip flag is not quoted").contains("(default 127.0.0.1)");
        assertThat(byName.get("log-flush-frequency")).endsWith("(default 5s)");
        assertThat(byName.get("cpu-cfs-quota-period")).contains("(default 100ms)");
    }

    @Test
    void noDescriptionTypesItsOwnDefault() {
        KubeletFlagSpecs.all().forEach(flag -> assertThat(flag.description()).as("--" + flag.name())
                .doesNotContain("(default "));
    }

    /**
     * By flag name, the default the help shows, as it shows it. The help is rendered wide enough for no line to wrap;
     * a flag with a long name has its description on the next line.
     */
    private static Map<String, String> helpDefaults() {
        Map<String, String> entries = new LinkedHashMap<>();
        String current = null;
        for (String line : KubeletCommand.usage(100_000).lines().map(String::stripTrailing).toList()) {
            Matcher flag = FLAG_LINE.matcher(line);
            if (flag.find()) {
                current = flag.group(1);
                entries.put(current, line);
            } else if (current != null && line.startsWith(" ")) {
                entries.merge(current, line.strip(), (a, b) -> a + " " + b);
            } else {
                current = null;
            }
        }
        Map<String, String> shown = new LinkedHashMap<>();
        entries.forEach((name, entry) -> {
            Matcher value = DEFAULT.matcher(entry);
            if (value.find()) {
                shown.put(name, value.group(1));
            }
        });
        return shown;
    }

    /** A default as a flag value: pflag quotes a string flag's and prints a string slice's in brackets. */
    private static String asFlagValue(String shown) {
        if (shown.length() >= 2 && shown.startsWith("\"") && shown.endsWith("\"")) {
            return shown.substring(1, shown.length() - 1);
        }
        if (shown.startsWith("[") && shown.endsWith("]")) {
            return shown.substring(1, shown.length() - 1);
        }
        return shown;
    }

    /** What pflag's help leaves out for each type: the zero value. */
    private static String zeroValue(FlagSpec flag) {
        return switch (flag.paramLabel()) {
            case "bool" -> "false";
            case "duration" -> "0s";
            case "int", "int32", "Level", "quantity" -> "0";
            default -> "";
        };
    }

    private static boolean isConfigFlag(FlagSpec flag) {
        return ConfigFlags.ALL.stream().anyMatch(f -> f.spec().name().equals(flag.name()));
    }

    private static ConfigFlag configFlag(FlagSpec flag) {
        return ConfigFlags.ALL.stream().filter(f -> f.spec().name().equals(flag.name())).findFirst().orElseThrow();
    }

    private static boolean isEmpty(Object value) {
        return value == null || value instanceof java.util.Collection<?> c && c.isEmpty()
                || value instanceof Map<?, ?> m && m.isEmpty();
    }

    /** The same configuration, an unset list or map counting as an empty one (the agent reads both alike). */
    private static boolean sameConfig(KubeletServer a, KubeletServer b) throws Exception {
        return a.changeDetectionStrategy() == b.changeDetectionStrategy()
                && withoutEmpty(JSON.readTree(KubeletConfigCodec.toJson(a.config())))
                .equals(withoutEmpty(JSON.readTree(KubeletConfigCodec.toJson(b.config()))));
    }

    private static JsonNode withoutEmpty(JsonNode node) {
        if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                JsonNode value = withoutEmpty(field.getValue());
                if (value.isNull() || (value.isContainerNode() && value.isEmpty())) {
                    fields.remove();
                }
            }
        }
        return node;
    }

    private static KubeletServer run(List<String> args) throws FlagsException {
        KubeletInvocation invocation = KubeletCommand.parse(args.toArray(String[]::new));
        assertThat(invocation).isInstanceOf(KubeletInvocation.Run.class);
        return ((KubeletInvocation.Run) invocation).server();
    }
}
