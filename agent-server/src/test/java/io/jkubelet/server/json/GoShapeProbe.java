package io.jkubelet.server.json;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Makes {@code core-v1-pod.goshape} by asking a real Go Kubernetes client how it encodes a Pod.
 *
 * <p>Run by hand (it is not a test) when the fabric8 model or the Kubernetes version we mirror changes:
 * {@code java -cp <test classpath> io.jkubelet.server.json.GoShapeProbe OUTPUT_FILE}. It needs {@code
 * kubectl} on the PATH; {@code kubectl set serviceaccount -f FILE --local -o json} decodes the file into
 * the typed Go {@code v1.Pod} and prints it back with {@code encoding/json}, so its output is exactly what
 * the kubelet would write for the same Go value.
 *
 * <p>Probe pods are built from the fabric8 model (every property it knows, recursively):
 *
 * <ul>
 *   <li><b>full</b>: every field set to a non-zero value; the output's key order is Go's field order;
 *   <li><b>skeleton(d)</b>: structs present down to depth d, every scalar, list and map left out; what Go
 *       still writes for a left-out field is its "absent" rule (a literal such as {@code null} or {@code 0},
 *       or the zero struct for a struct-valued field at the frontier);
 *   <li><b>zero</b>: every scalar set to its zero value; a scalar that disappears from the output is
 *       {@code omitempty} ("zero=omit").
 * </ul>
 *
 * Fields {@code kubectl set serviceaccount} needs or changes (the top-level kind, apiVersion,
 * metadata.name, spec.serviceAccountName and spec.serviceAccount) are forced in every probe; their rules
 * are taken from other occurrences of the same type or set from the Go source (all are omitempty strings).
 */
public final class GoShapeProbe {

    private static final String TIMESTAMP = "2024-01-02T03:04:05Z";

    /** String fields that are metav1.Time in Go: they only accept RFC 3339 text. */
    private static final Set<String> TIME_FIELDS =
            Set.of(
                    "creationTimestamp",
                    "deletionTimestamp",
                    "time",
                    "lastProbeTime",
                    "lastTransitionTime",
                    "startedAt",
                    "finishedAt",
                    "startTime");

    private static final Set<Class<?>> LEAF_CLASSES =
            Set.of(Quantity.class, AnyType.class, io.fabric8.kubernetes.api.model.IntOrString.class, MicroTime.class);

    private enum Mode {
        FULL,
        ZERO,
        SKELETON
    }

    private enum Kind {
        LEAF,
        OBJECT,
        LIST,
        MAP
    }

    private record Prop(String name, Kind kind, Class<?> element, boolean structElement) {}

    /**
     * Jackson 2, as an independent reader of fabric8's property annotations; the probe writes only trees it builds
     * itself, so it needs none of {@link KubeJson}'s value serializers.
     */
    private final ObjectMapper mapper = new ObjectMapper();
    private final JsonNodeFactory nodes = JsonNodeFactory.instance;
    private final Map<Class<?>, List<Prop>> propsCache = new HashMap<>();

    private final Map<Class<?>, List<String>> order = new LinkedHashMap<>();
    private final Map<Class<?>, Map<String, String>> absent = new HashMap<>();
    private final Map<Class<?>, Map<String, Boolean>> omitZero = new HashMap<>();
    private final Map<Class<?>, Map<String, String>> zeroLiteral = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();
    /**
     * List-element types whose {@code name} kubectl's strategic merge needs but Go drops when empty
     * (an omitempty merge key): probes always give these a name. Learnt from kubectl's errors.
     */
    private final Set<Class<?>> needName = new HashSet<>();
    private final Set<Class<?>> namedListElements = new HashSet<>();

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: GoShapeProbe OUTPUT_FILE");
            System.exit(2);
        }
        GoShapeProbe probe = new GoShapeProbe();
        String text = probe.run();
        Files.writeString(Path.of(args[0]), text, StandardCharsets.UTF_8);
        probe.warnings.forEach(w -> System.err.println("warning: " + w));
        System.err.println("wrote " + args[0]);
    }

    String run() throws IOException, InterruptedException {
        ObjectNode full = build(Pod.class, Mode.FULL, 0, Integer.MAX_VALUE, new HashSet<>(), true);
        JsonNode fullOut = kubectl(full);
        observeOrder(Pod.class, fullOut);
        int depth = depth(fullOut);
        findOmitemptyNameKeys(depth);
        for (int d = 0; d <= depth; d++) {
            ObjectNode skeleton = build(Pod.class, Mode.SKELETON, 0, d, new HashSet<>(), true);
            observeAbsent(Pod.class, skeleton, kubectl(skeleton), true);
        }
        ObjectNode zero = build(Pod.class, Mode.ZERO, 0, Integer.MAX_VALUE, new HashSet<>(), true);
        System.err.println("omitempty name merge keys in: " + needName.stream().map(Class::getSimpleName).toList());
        observeZero(Pod.class, zero, kubectl(zero), true, false);
        return render();
    }

    /**
     * Finds the list-element types whose empty {@code name} Go drops: with every list element named the
     * skeleton passes; leaving one type's name out fails exactly when Go omits it (omitempty) in a list
     * that kubectl merges by name.
     */
    private void findOmitemptyNameKeys(int depth) throws IOException, InterruptedException {
        build(Pod.class, Mode.SKELETON, 0, depth, new HashSet<>(), true); // collects namedListElements
        Set<Class<?>> candidates = new HashSet<>(namedListElements);
        for (Class<?> candidate : candidates) {
            needName.clear();
            needName.addAll(candidates);
            needName.remove(candidate);
            try {
                kubectl(build(Pod.class, Mode.SKELETON, 0, depth, new HashSet<>(), true));
                namedOk.add(candidate);
            } catch (MissingMergeKey e) {
                // this type's empty name vanished
            }
        }
        needName.clear();
        needName.addAll(candidates);
        needName.removeAll(namedOk);
        kubectl(build(Pod.class, Mode.SKELETON, 0, depth, new HashSet<>(), true)); // must pass now
    }

    private final Set<Class<?>> namedOk = new HashSet<>();

    // ---- probe pods ----

    private ObjectNode build(Class<?> type, Mode mode, int depth, int maxDepth, Set<Class<?>> path, boolean top) {
        return build(type, mode, depth, maxDepth, path, top, false);
    }

    private ObjectNode build(
            Class<?> type, Mode mode, int depth, int maxDepth, Set<Class<?>> path, boolean top, boolean listElement) {
        ObjectNode node = nodes.objectNode();
        path.add(type);
        for (Prop prop : props(type)) {
            if (top && type == Pod.class && (prop.name().equals("kind") || prop.name().equals("apiVersion"))) {
                continue;
            }
            JsonNode value;
            if (prop.structElement()) {
                if (path.contains(prop.element()) || depth + 1 > maxDepth) {
                    continue;
                }
                boolean childTop = top && type == Pod.class;
                value = build(prop.element(), mode, depth + 1, maxDepth, path, childTop, prop.kind() == Kind.LIST);
                if (childTop && prop.element() == PodSpec.class) {
                    ((ObjectNode) value).put("serviceAccountName", "default").put("serviceAccount", "default");
                }
            } else {
                boolean mergeKey = listElement && prop.name().equals("name") && needName.contains(type);
                if (listElement && prop.name().equals("name")) {
                    namedListElements.add(type);
                }
                if (mode == Mode.SKELETON && !mergeKey) {
                    continue;
                }
                // kubectl's strategic merge needs a non-empty merge key in every list element: give it a
                // non-zero value in every probe; its rules come from occurrences outside merge lists or, failing
                // that, from GO_MERGE_KEY_RULES.
                value = leaf(prop, mergeKey ? Mode.FULL : mode);
                if (value == null) {
                    continue;
                }
            }
            node.set(prop.name(), wrap(prop.kind(), value));
        }
        path.remove(type);
        if (top && type == Pod.class) {
            ObjectNode pod = nodes.objectNode().put("kind", "Pod").put("apiVersion", "v1");
            pod.setAll(node);
            ObjectNode metadata = pod.has("metadata") ? (ObjectNode) pod.get("metadata") : pod.putObject("metadata");
            metadata.put("name", "probe");
            return pod;
        }
        return node;
    }

    private JsonNode wrap(Kind kind, JsonNode value) {
        return switch (kind) {
            case LIST -> nodes.arrayNode().add(value);
            case MAP -> nodes.objectNode().set("k", value);
            default -> value;
        };
    }

    private JsonNode leaf(Prop prop, Mode mode) {
        Class<?> c = prop.element();
        boolean zero = mode == Mode.ZERO;
        if (c == String.class) {
            return nodes.textNode(zero && !TIME_FIELDS.contains(prop.name()) ? "" : TIMESTAMP);
        }
        if (c == Integer.class || c == int.class || c == Long.class || c == long.class) {
            return nodes.numberNode(zero ? 0 : 1);
        }
        if (c == Boolean.class || c == boolean.class) {
            return nodes.booleanNode(!zero);
        }
        if (c == Quantity.class) {
            return nodes.textNode(zero ? "0" : "1");
        }
        if (AnyType.class.isAssignableFrom(c)) {
            return nodes.numberNode(zero ? 0 : 1);
        }
        if (c == MicroTime.class) {
            return nodes.textNode("2024-01-02T03:04:05.000000Z");
        }
        warnings.add("no probe value for " + prop + "; left out");
        return null;
    }

    // ---- observations ----

    private void observeOrder(Class<?> type, JsonNode out) {
        if (!out.isObject()) {
            return;
        }
        List<String> names = new ArrayList<>();
        out.fieldNames().forEachRemaining(names::add);
        List<String> known = order.get(type);
        // kubectl hides some fields in places (managedFields of the top object): keep the fullest order,
        // and check that the orders seen agree.
        if (known == null || (names.containsAll(known) && names.size() > known.size())) {
            if (known != null && !names.stream().filter(known::contains).toList().equals(known)) {
                warnings.add(type.getSimpleName() + ": field orders disagree: " + known + " vs " + names);
            }
            order.put(type, names);
        } else if (!known.containsAll(names)) {
            warnings.add(type.getSimpleName() + ": fields " + names + " not all in first order " + known);
        }
        for (Prop prop : props(type)) {
            JsonNode child = out.get(prop.name());
            if (prop.structElement() && child != null) {
                forEachElement(prop.kind(), child, e -> observeOrder(prop.element(), e));
            }
        }
    }

    private void observeAbsent(Class<?> type, JsonNode in, JsonNode out, boolean top) {
        if (!out.isObject()) {
            return;
        }
        Map<String, String> rules = absent.computeIfAbsent(type, k -> new HashMap<>());
        Map<String, Prop> props = propsByName(type);
        Set<String> names = new HashSet<>(props.keySet());
        out.fieldNames().forEachRemaining(names::add);
        for (String name : names) {
            if (top && isForced(type, name)) {
                continue;
            }
            Prop prop = props.get(name);
            JsonNode inValue = in.get(name);
            JsonNode outValue = out.get(name);
            if (inValue == null) {
                String rule;
                if (outValue == null) {
                    rule = "omit";
                } else if (prop != null && prop.kind() == Kind.OBJECT && prop.structElement()) {
                    rule = "struct";
                } else {
                    rule = outValue.toString();
                }
                String before = rules.putIfAbsent(name, rule);
                if (before != null && !before.equals(rule)) {
                    warnings.add(type.getSimpleName() + "." + name + ": absent rule " + before + " and " + rule);
                }
            } else if (prop != null && prop.structElement() && outValue != null) {
                boolean childTop = top && type == Pod.class;
                forEachPair(prop.kind(), inValue, outValue, (i, o) -> observeAbsent(prop.element(), i, o, childTop));
            }
        }
    }

    private void observeZero(Class<?> type, JsonNode in, JsonNode out, boolean top, boolean listElement) {
        if (!out.isObject()) {
            return;
        }
        Map<String, Boolean> rules = omitZero.computeIfAbsent(type, k -> new HashMap<>());
        for (Prop prop : props(type)) {
            JsonNode inValue = in.get(prop.name());
            JsonNode outValue = out.get(prop.name());
            if (inValue == null || (top && isForced(type, prop.name())) || (listElement && prop.name().equals("name") && needName.contains(type))) {
                continue;
            }
            if (prop.structElement()) {
                if (outValue != null) {
                    boolean childTop = top && type == Pod.class;
                    boolean element = prop.kind() == Kind.LIST;
                    forEachPair(prop.kind(), inValue, outValue, (i, o) -> observeZero(prop.element(), i, o, childTop, element));
                }
            } else if (prop.kind() == Kind.LEAF && !TIME_FIELDS.contains(prop.name())) {
                rules.putIfAbsent(prop.name(), outValue == null);
                if (outValue != null) {
                    zeroLiteral.computeIfAbsent(type, k -> new HashMap<>()).putIfAbsent(prop.name(), outValue.toString());
                }
            }
        }
    }

    private static boolean isForced(Class<?> type, String name) {
        return (type == Pod.class && (name.equals("kind") || name.equals("apiVersion")))
                || (type == io.fabric8.kubernetes.api.model.ObjectMeta.class && name.equals("name"))
                || (type == PodSpec.class && (name.equals("serviceAccountName") || name.equals("serviceAccount")));
    }

    private interface NodeVisitor {
        void visit(JsonNode node);
    }

    private interface PairVisitor {
        void visit(JsonNode in, JsonNode out);
    }

    private static void forEachElement(Kind kind, JsonNode value, NodeVisitor visitor) {
        switch (kind) {
            case LIST, MAP -> value.forEach(visitor::visit);
            default -> visitor.visit(value);
        }
    }

    private static void forEachPair(Kind kind, JsonNode in, JsonNode out, PairVisitor visitor) {
        switch (kind) {
            case LIST -> {
                for (int i = 0; i < Math.min(in.size(), out.size()); i++) {
                    visitor.visit(in.get(i), out.get(i));
                }
            }
            case MAP -> {
                for (Iterator<String> it = in.fieldNames(); it.hasNext(); ) {
                    String key = it.next();
                    if (out.has(key)) {
                        visitor.visit(in.get(key), out.get(key));
                    }
                }
            }
            default -> visitor.visit(in, out);
        }
    }

    /** Struct nesting levels in {@code node}: a leaf is 0, an object 1 + its deepest child. */
    private static int depth(JsonNode node) {
        int max = 0;
        for (JsonNode child : node) {
            max = Math.max(max, depth(child));
        }
        return node.isObject() ? 1 + max : max;
    }

    // ---- output ----

    private String render() throws IOException, InterruptedException {
        StringBuilder out = new StringBuilder();
        out.append("# Go encoding/json shape of k8s.io/api/core/v1 Pod and the types it contains.\n");
        out.append("# Generated by GoShapeProbe (agent-server tests) from ").append(kubectlVersion())
                .append(" on ").append(LocalDate.now()).append("; do not edit by hand.\n");
        out.append("# Format: see io.jkubelet.server.json.GoShapes.\n");
        Map<String, Class<?>> bySimpleName = new TreeMap<>();
        for (Class<?> type : order.keySet()) {
            Class<?> clash = bySimpleName.put(type.getSimpleName(), type);
            if (clash != null && clash != type) {
                throw new IllegalStateException("two model classes named " + type.getSimpleName());
            }
        }
        for (Class<?> type : order.keySet()) {
            out.append('\n').append('[').append(type.getSimpleName()).append("]\n");
            Map<String, Prop> props = propsByName(type);
            for (String name : order.get(type)) {
                Prop prop = props.get(name);
                String kind = prop == null ? "leaf" : kind(prop);
                String absentRule = absent.getOrDefault(type, Map.of()).get(name);
                if (absentRule == null && name.equals("name") && needName.contains(type)) {
                    // kubectl lost this name when it was empty: Go dropped it, so it is omitempty.
                    absentRule = "omit";
                }
                if (absentRule == null && type == Pod.class && name.equals("metadata")) {
                    // Forced in every probe; Go's Pod embeds ObjectMeta by value, so it is always written.
                    absentRule = "struct";
                }
                if (absentRule == null) {
                    if (isForced(type, name)) {
                        absentRule = "omit";
                    } else {
                        warnings.add(type.getSimpleName() + "." + name + ": no absent observation; assuming omit");
                        absentRule = "omit";
                    }
                }
                boolean zeroOmit;
                if (prop != null && prop.kind() == Kind.LEAF && !prop.structElement()) {
                    Boolean observed = omitZero.getOrDefault(type, Map.of()).get(name);
                    zeroOmit = observed != null ? observed : absentRule.equals("omit");
                    if (observed == null && !absentRule.equals("omit") && !absentRule.equals("null")) {
                        warnings.add(type.getSimpleName() + "." + name + ": no zero observation; assuming emit");
                    }
                } else {
                    zeroOmit = absentRule.equals("omit");
                }
                out.append(name).append(' ').append(kind).append(" zero=").append(zeroOmit ? "omit" : "emit")
                        .append(" absent=").append(absentRule).append('\n');
            }
            for (String name : props.keySet()) {
                if (!order.get(type).contains(name)) {
                    out.append("# ").append(name).append(": fabric8 only, unknown to this Go version\n");
                }
            }
        }
        return out.toString();
    }

    private static String kind(Prop prop) {
        String element = prop.structElement() ? prop.element().getSimpleName() : "-";
        return switch (prop.kind()) {
            case LEAF -> "leaf";
            case OBJECT -> "obj:" + element;
            case LIST -> "list:" + element;
            case MAP -> "map:" + element;
        };
    }

    // ---- fabric8 model introspection ----

    private Map<String, Prop> propsByName(Class<?> type) {
        Map<String, Prop> byName = new LinkedHashMap<>();
        for (Prop p : props(type)) {
            byName.put(p.name(), p);
        }
        return byName;
    }

    private List<Prop> props(Class<?> type) {
        return propsCache.computeIfAbsent(type, this::introspect);
    }

    private List<Prop> introspect(Class<?> type) {
        JavaType javaType = mapper.constructType(type);
        BeanDescription description = mapper.getSerializationConfig().introspect(javaType);
        List<Prop> props = new ArrayList<>();
        for (BeanPropertyDefinition def : description.findProperties()) {
            if (!def.couldSerialize()) {
                continue;
            }
            JavaType t = def.getPrimaryType();
            Kind kind;
            Class<?> element;
            if (t.isCollectionLikeType()) {
                kind = Kind.LIST;
                element = t.getContentType().getRawClass();
            } else if (t.isMapLikeType()) {
                kind = Kind.MAP;
                element = t.getContentType().getRawClass();
            } else {
                element = t.getRawClass();
                kind = isStruct(element) ? Kind.OBJECT : Kind.LEAF;
            }
            if (element == Object.class) {
                continue;
            }
            props.add(new Prop(def.getName(), kind, element, isStruct(element)));
        }
        return props;
    }

    private static boolean isStruct(Class<?> c) {
        return c.getName().startsWith("io.fabric8.kubernetes.api.model.")
                && !c.isEnum()
                && !c.isInterface()
                && LEAF_CLASSES.stream().noneMatch(l -> l.isAssignableFrom(c));
    }

    // ---- kubectl ----

    private JsonNode kubectl(ObjectNode pod) throws IOException, InterruptedException {
        Path file = Files.createTempFile("goshape-probe", ".json");
        try {
            Files.writeString(file, mapper.writeValueAsString(pod));
            Process process =
                    new ProcessBuilder("kubectl", "set", "serviceaccount", "-f", file.toString(), "--local", "-o", "json", "default")
                            .start();
            byte[] stdout = process.getInputStream().readAllBytes();
            String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            int rc = process.waitFor();
            if (rc != 0) {
                if (stderr.contains("does not contain declared merge key: name")) {
                    throw new MissingMergeKey("name");
                }
                throw new IOException("kubectl exited " + rc + ": " + stderr);
            }
            return mapper.readTree(stdout);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static final class MissingMergeKey extends IOException {
        final String key;

        MissingMergeKey(String key) {
            super("kubectl wants merge key " + key);
            this.key = key;
        }
    }

    private static String kubectlVersion() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("kubectl", "version", "--client").redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return "kubectl " + text.lines().findFirst().orElse("?").replace("Client Version: ", "");
    }
}
