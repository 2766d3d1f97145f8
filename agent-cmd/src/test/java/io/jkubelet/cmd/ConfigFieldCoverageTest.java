package io.jkubelet.cmd;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.jkubelet.core.apis.config.KubeletConfigCodec;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.testing.GeneratedDocTable;
import io.jkubelet.core.testing.ProjectSources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * No silent settings: every field of {@link KubeletConfiguration} (and of its nested settings structs), found by
 * reflection, is in {@code config-fields.yaml} as acted on (with the behaviour tests that show it), refused at start,
 * warned about once at start, or inert as upstream's; a field added to the type and not to the table fails here.
 * Refusals and warnings are shown by loading a configuration with the value; {@code docs/operations.md}'s table is
 * generated from the same file and must match it.
 */
class ConfigFieldCoverageTest {

    /** A row of the table. */
    record Entry(String field, String status, List<String> tests, String shownAs, String set, List<String> args,
            String says, String why) {
        String leaf() {
            return field.substring(field.lastIndexOf('.') + 1);
        }
    }

    /** What each status means, as the documentation says it. */
    private static final Map<String, String> STATUS_TEXT = Map.of(
            "supported", "acted on as upstream",
            "refused", "refused at start",
            "warned", "one warning at start",
            "inert", "accepted; upstream does nothing with it either");

    /** The host the warnings are computed for: a fixed open-file limit above the default maxOpenFiles. */
    private static final UnsupportedSettings.Host HOST = new UnsupportedSettings.Host(1_048_576);

    /** Every configuration the table's values are set on starts from this one, so that it warns of nothing. */
    private static final Map<String, String> QUIET_BASE = Map.of("makeIPTablesUtilChains", "false",
            "contentType", "application/json");

    static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @TempDir
    Path dir;

    static List<Entry> table() throws IOException {
        ObjectMapper yaml = YAMLMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
        try (InputStream in = ConfigFieldCoverageTest.class.getResourceAsStream("/config-fields.yaml")) {
            return List.of(yaml.readValue(in, Entry[].class));
        }
    }

    /** The settings' paths: every JSON property, descending into nested structs of the configuration package. */
    static Set<String> fields(Class<?> type, String prefix) {
        Set<String> paths = new LinkedHashSet<>();
        for (AnnotatedElement member : members(type)) {
            String name = member.getAnnotation(JsonProperty.class).value();
            Class<?> valueType = member instanceof Method m ? m.getReturnType() : ((Field) member).getType();
            if (isStruct(valueType)) {
                paths.addAll(fields(valueType, prefix + name + "."));
            } else {
                paths.add(prefix + name);
            }
        }
        return paths;
    }

    private static List<AnnotatedElement> members(Class<?> type) {
        List<AnnotatedElement> members = new ArrayList<>();
        for (Method m : type.getDeclaredMethods()) {
            if (m.isAnnotationPresent(JsonProperty.class) && !Modifier.isStatic(m.getModifiers())) {
                members.add(m);
            }
        }
        for (Field f : type.getDeclaredFields()) {
            if (f.isAnnotationPresent(JsonProperty.class) && !Modifier.isStatic(f.getModifiers())) {
                members.add(f);
            }
        }
        return members;
    }

    private static boolean isStruct(Class<?> type) {
        return type.getPackageName().equals(KubeletConfiguration.class.getPackageName()) && !members(type).isEmpty()
                && !Collection.class.isAssignableFrom(type) && !Map.class.isAssignableFrom(type);
    }

    @Test
    void everyFieldOfTheConfigurationIsInTheTableAndNothingElse() throws IOException {
        Set<String> fields = fields(KubeletConfiguration.class, "");
        List<String> listed = table().stream().map(Entry::field).toList();

        assertThat(fields).as("the table has a row for every field (a new field needs one: supported with its tests, "
                + "refused, warned or inert)").containsExactlyInAnyOrderElementsOf(listed);
        assertThat(listed).as("one row per field").doesNotHaveDuplicates();
        assertThat(fields).as("nested settings are enumerated too").contains("authentication.webhook.cacheTTL",
                "logging.options.json.splitStream", "memorySwap.swapBehavior", "tracing.endpoint");
    }

    static Stream<Entry> supported() throws IOException {
        return table().stream().filter(e -> e.status().equals("supported"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("supported")
    void aSupportedFieldIsShownByBehaviourTestsThatNameIt(Entry entry) throws IOException {
        assertThat(entry.tests()).as(entry.field() + ": the tests that show it").isNotEmpty();
        Map<String, Path> sources = ProjectSources.byClassName(ROOT, "src/test/java");
        String needle = entry.shownAs() == null ? entry.leaf() : entry.shownAs();
        for (String test : entry.tests()) {
            assertThat(sources).as(entry.field() + ": test class " + test).containsKey(test);
            assertThat(Files.readString(sources.get(test))).as(test + " names " + needle).contains(needle);
        }
    }

    static Stream<Entry> refused() throws IOException {
        return table().stream().filter(e -> e.status().equals("refused"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void aRefusedValueStopsTheStartNamingTheField(Entry entry) throws IOException {
        Path config = configWith(entry.set());

        assertThatThrownBy(() -> KubeletCommand.parse(args(config, entry))).as(entry.field())
                .isInstanceOf(FlagsException.class).hasMessageContaining(entry.says())
                .satisfies(e -> assertThat(e.getMessage()).containsIgnoringCase(entry.leaf()));
    }

    static Stream<Entry> warned() throws IOException {
        return table().stream().filter(e -> e.status().equals("warned"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("warned")
    void aWarnedValueGivesExactlyOneStartupWarningNamingTheField(Entry entry) throws Exception {
        List<String> warnings = startupWarnings(entry, configWith(entry.set()));

        assertThat(warnings).as(entry.field()).singleElement().asString().contains(entry.leaf()).contains(entry.says());
        assertThat(startupWarnings(entry, configWith(null))).as("without the value").isEmpty();
    }

    static Stream<Entry> inert() throws IOException {
        return table().stream().filter(e -> e.status().equals("inert"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inert")
    void anInertValueIsTakenWithoutAWordAsUpstreamTakesIt(Entry entry) throws Exception {
        KubeletConfiguration with = run(entry, configWith(entry.set())).server().config();
        KubeletConfiguration without = run(entry, configWith(null)).server().config();

        assertThat(KubeletConfigCodec.toJson(with)).as(entry.field() + " is "
                + "taken").isNotEqualTo(KubeletConfigCodec.toJson(without));
        assertThat(UnsupportedSettings.warnings(with, true, HOST)).as(entry.field()).isEmpty();
        assertThat(entry.why()).as(entry.field() + ": why upstream does nothing with it").isNotBlank();
    }

    @Test
    void theOperationsGuidesTableIsGeneratedFromTheSameTable() throws IOException {
        GeneratedDocTable.check(ROOT.resolve("docs/operations.md"), "config-fields",
                "agent-cmd/src/test/resources/config-fields.yaml", markdown(table()));
    }

    static String markdown(List<Entry> table) {
        StringBuilder md = new StringBuilder("| field | jkubelet | why, or the tests that show it |\n|---|---|---|\n");
        for (Entry e : table) {
            String why = e.why() == null ? "" : e.why().strip().replace("\n", " ").replace("|", "\\|");
            if (e.status().equals("supported")) {
                String shown = "shown by " + String.join(", ", e.tests().stream().map(t -> "`" + t + "`").toList());
                why = why.isEmpty() ? shown : why + "; " + shown;
            }
            md.append("| `").append(e.field()).append("` | ").append(STATUS_TEXT.get(e.status())).append(" | ")
                    .append(why).append(" |\n");
        }
        return md.toString();
    }

    // --- loading a configuration with one value ---

    private Path configWith(String set) throws IOException {
        Map<String, String> base = new TreeMap<>(QUIET_BASE);
        StringBuilder yaml = new StringBuilder("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: "
                + "KubeletConfiguration\n");
        if (set != null) {
            String value = set.replace("${dir}", dir.toString());
            base.keySet().removeIf(key -> value.startsWith(key + ":"));
            yaml.append(value).append('\n');
        }
        base.forEach((key, value) -> yaml.append(key).append(": ").append(value).append('\n'));
        Path file = Files.createTempFile(dir, "kubelet-config", ".yaml");
        Files.writeString(file, yaml);
        return file;
    }

    private String[] args(Path config, Entry entry) {
        List<String> args = new ArrayList<>(List.of("--config=" + config));
        if (entry.args() != null) {
            entry.args().forEach(a -> args.add(a.replace("${dir}", dir.toString())));
        }
        return args.toArray(String[]::new);
    }

    private KubeletInvocation.Run run(Entry entry, Path config) throws Exception {
        return (KubeletInvocation.Run) KubeletCommand.parse(args(config, entry));
    }

    private List<String> startupWarnings(Entry entry, Path config) throws Exception {
        KubeletInvocation.Run run = run(entry, config);
        List<String> warnings = new ArrayList<>(run.warnings());
        warnings.addAll(UnsupportedSettings.warnings(run.server().config(), run.server().standalone(), HOST));
        return warnings;
    }
}
