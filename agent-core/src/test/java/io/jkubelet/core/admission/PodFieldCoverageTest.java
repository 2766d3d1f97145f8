package io.jkubelet.core.admission;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.admission.testing.PodFields;
import io.jkubelet.core.admission.testing.PodFields.Entry;
import io.jkubelet.core.testing.GeneratedDocTable;
import io.jkubelet.core.testing.ProjectSources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No pod field silently ignored: every field of fabric8's {@link PodSpec}, and of the types of the fields jkubelet acts
 * on, found by reflection, is in {@code pod-fields.yaml} as acted on (by main classes that read it), acted on in part
 * (what is missing said), refused at admission (a pod setting it is refused with its reason and a message naming
 * it, by the admit handlers that judge a pod's fields), or ignored as upstream ignores it (why said). A field the
 * model gains fails here until it has a row; {@code docs/operations.md}'s table of refused fields is generated from the
 * same file.
 */
class PodFieldCoverageTest {
    private static final String MODEL = PodSpec.class.getPackageName();
    private static final Set<String> STATUSES = Set.of("acted", "partial", "refused", "ignored");
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    static List<Entry> table() throws IOException {
        return PodFields.table();
    }

    // ---- the walk

    /**
     * {@code Type.field} of every field reached from PodSpec: the fields of each type reached, and the types of the
     * fields acted on (wholly or in part) reached in turn; a refused or ignored field's type is not looked into.
     */
    static Set<String> walk(Map<String, Entry> table) {
        Set<String> fields = new LinkedHashSet<>();
        Set<Class<?>> seen = new LinkedHashSet<>();
        Deque<Class<?>> types = new ArrayDeque<>(List.of(PodSpec.class));
        while (!types.isEmpty()) {
            Class<?> type = types.poll();
            if (!seen.add(type)) {
                continue;
            }
            for (Field f : type.getDeclaredFields()) {
                JsonProperty json = f.getAnnotation(JsonProperty.class);
                if (json == null || Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                String name = type.getSimpleName() + "." + json.value();
                fields.add(name);
                Class<?> value = valueType(f);
                Entry entry = table.get(name);
                boolean actedOn = entry != null && (entry.status().equals("acted") || entry.status().equals("partial"));
                if (isModel(value) && actedOn) {
                    types.add(value);
                }
            }
        }
        return fields;
    }

    private static Class<?> valueType(Field f) {
        if (List.class.isAssignableFrom(f.getType())) {
            return (Class<?>) ((ParameterizedType) f.getGenericType()).getActualTypeArguments()[0];
        }
        return f.getType();
    }

    private static boolean isModel(Class<?> type) {
        return type.getPackageName().equals(MODEL) && type != Quantity.class && type != IntOrString.class;
    }

    private static Map<String, Entry> byField() throws IOException {
        Map<String, Entry> byField = new TreeMap<>();
        table().forEach(e -> byField.put(e.field(), e));
        return byField;
    }

    @Test
    void everyFieldOfThePodSpecIsInTheTableAndNothingElse() throws IOException {
        List<String> listed = table().stream().map(Entry::field).toList();
        Set<String> fields = walk(byField());

        assertThat(fields).as("the table has a row for every field reached (a new field needs one: acted, partial, "
                + "refused or ignored)").containsExactlyInAnyOrderElementsOf(listed);
        assertThat(listed).as("one row per field").doesNotHaveDuplicates();
        assertThat(table()).extracting(Entry::status).allMatch(STATUSES::contains);
        assertThat(fields).as("the walk reaches into containers, security contexts, volumes, env sources, "
                + "lifecycles and probes").contains("Container.lifecycle", "Lifecycle.stopSignal",
                "SecurityContext.procMount", "PodSecurityContext.supplementalGroupsPolicy", "Volume.image",
                "EnvVarSource.fileKeyRef", "Probe.grpc", "GRPCAction.mode", "KeyToPath.user");
    }

    // ---- acted on: read where the table says

    static Stream<Entry> actedOn() throws IOException {
        return table().stream().filter(e -> e.status().equals("acted")
                || (e.status().equals("partial") && e.where() != null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("actedOn")
    void anActedOnFieldIsReadByTheClassesTheTableNames(Entry entry) throws Exception {
        assertThat(entry.where()).as(entry + ": where it is acted on").isNotEmpty();
        String getter = getter(entry);
        Map<String, Path> sources = ProjectSources.byClassName(ROOT, "src/main/java");
        for (String where : entry.where()) {
            assertThat(sources).as(entry + ": main class " + where).containsKey(where);
            assertThat(Files.readString(sources.get(where))).as(where + " reads " + entry + " (." + getter + "())")
                    .contains("." + getter + "(");
        }
    }

    /** The fabric8 getter of the field, as its {@code @JsonProperty} names it. */
    private static String getter(Entry entry) throws ClassNotFoundException {
        Class<?> type = Class.forName(MODEL + "." + entry.type());
        for (Method m : type.getMethods()) {
            JsonProperty json = m.getAnnotation(JsonProperty.class);
            if (json != null && json.value().equals(entry.leaf()) && m.getParameterCount() == 0) {
                return m.getName();
            }
        }
        throw new AssertionError("no getter of " + entry);
    }

    // ---- partial, ignored: said why

    @Test
    void aPartlyActedOnFieldSaysWhatIsMissingAndAnIgnoredOneWhyUpstreamIgnoresItToo() throws IOException {
        for (Entry e : table()) {
            if (e.status().equals("partial")) {
                assertThat(e.missing()).as(e + ": what is not done").isNotBlank();
            }
            if (e.status().equals("ignored")) {
                assertThat(e.why()).as(e + ": why nothing is done").isNotBlank();
            }
        }
    }

    // ---- refused: at admission, naming the field

    static Stream<Entry> refused() throws IOException {
        return table().stream().filter(e -> e.status().equals("refused"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void aRefusedFieldFailsAdmissionWithItsReasonNamingIt(Entry entry) {
        assertThat(entry.set()).as(entry + ": the value that is refused").isNotEmpty();
        assertThat(entry.reason()).as(entry + ": the reason").isNotBlank();
        boolean onSeLinuxHost = "selinux".equals(entry.host());

        PodAdmitResult result = admit(pod(entry.set()), onSeLinuxHost);

        assertThat(result.admit()).as(entry + " refused").isFalse();
        assertThat(result.reason()).isEqualTo(entry.reason());
        assertThat(result.message()).as(entry + ": the message names the field")
                .contains(entry.names() != null ? entry.names() : entry.path()).containsIgnoringCase(entry.leaf());
        if (onSeLinuxHost) {
            assertThat(admit(pod(entry.set()), false).admit()).as(entry + " without SELinux on the host, as upstream")
                    .isTrue();
        }
        for (Map<String, JsonNode> accepted : entry.accepts() == null ? List.<Map<String, JsonNode>>of()
                : entry.accepts()) {
            assertThat(admit(pod(accepted), onSeLinuxHost)).as(entry + ": " + accepted + " is admitted")
                    .isEqualTo(PodAdmitResult.ADMIT);
        }
    }

    @Test
    void thePlainPodEveryRowStartsFromIsAdmitted() {
        assertThat(admit(pod(Map.of()), true)).isEqualTo(PodAdmitResult.ADMIT);
    }

    /** The admit handlers that judge a pod's own fields, in the kubelet's order, on a node with room to spare. */
    private static PodAdmitResult admit(Pod pod, boolean seLinuxEnabled) {
        Node node = new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().withNewStatus()
                .addToAllocatable(Map.of("cpu", new Quantity("8"), "memory", new Quantity("16Gi"),
                        "pods", new Quantity("110"), "ephemeral-storage", new Quantity("100Gi")))
                .endStatus().build();
        List<PodAdmitHandler> handlers = List.of(PredicateAdmitHandler.against(() -> node),
                new AppArmorAdmitHandler(() -> false), new PodFeaturesAdmitHandler(() -> seLinuxEnabled));
        for (PodAdmitHandler handler : handlers) {
            PodAdmitResult result = handler.admit(pod, List.of());
            if (!result.admit()) {
                return result;
            }
        }
        return PodAdmitResult.ADMIT;
    }

    static Pod pod(Map<String, JsonNode> set) {
        return PodFields.pod(set);
    }

    // ---- the operations guide's table

    @Test
    void theOperationsGuidesTableIsGeneratedFromTheSameTable() throws IOException {
        GeneratedDocTable.check(ROOT.resolve("docs/operations.md"), "pod-fields",
                "agent-core/src/test/resources/pod-fields.yaml", markdown(table()));
    }

    /** The refused fields, then the ones acted on in part. */
    static String markdown(List<Entry> table) {
        StringBuilder md = new StringBuilder("| field | in a pod | jkubelet | reason, or what is not done |\n"
                + "|---|---|---|---|\n");
        for (Entry e : table) {
            if (e.status().equals("refused")) {
                String when = "selinux".equals(e.host()) ? " where the host enforces SELinux (elsewhere ignored, as "
                        + "upstream)" : "";
                String accepted = e.accepts() == null ? "" : "; accepted: " + String.join(", ", e.accepts().stream()
                        .flatMap(a -> a.values().stream()).map(v -> v.isObject() ? v.findValue(e.leaf()) : v)
                        .filter(java.util.Objects::nonNull).map(v -> v.asString().isEmpty() ? "`\"\"`" : "`" + v.asString() + "`").toList());
                md.append("| `").append(e.field()).append("` | `").append(e.path().replaceAll("\\[\\d+]", "[*]"))
                        .append("` | refused").append(when).append(" | `").append(e.reason())
                        .append('`').append(accepted).append(" |\n");
            }
        }
        for (Entry e : table) {
            if (e.status().equals("partial")) {
                md.append("| `").append(e.field()).append("` | | acted on in part | ")
                        .append(e.missing().strip().replace("|", "\\|")).append(" |\n");
            }
        }
        return md.toString();
    }
}
