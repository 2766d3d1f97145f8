package io.jkubelet.cmd.e2e.apiserver;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Server-side printing ({@code meta.k8s.io/v1 Table}) as a real apiserver does it for {@code kubectl get}: kubectl
 * asks for a Table and, given plain JSON instead, prints only NAME and AGE (no STATUS, no pod IP). The columns and
 * cells follow the apiserver's printers for pods, nodes, events and leases; other kinds get NAME and CREATED AT.
 */
final class ServerTables {
    private ServerTables() {}

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private record Column(String name, String type, int priority, Function<JsonNode, Object> cell) {}

    static boolean wantsTable(String accept) {
        return accept != null && accept.contains("as=Table");
    }

    /** A Table of the items of {@code list} (a List or a single object), with each row's object attached. */
    static ObjectNode table(String plural, JsonNode list, Instant now) {
        List<Column> columns = columns(plural, now);
        ObjectNode table = F.objectNode();
        table.put("kind", "Table").put("apiVersion", "meta.k8s.io/v1");
        ObjectNode meta = table.putObject("metadata");
        if (list.path("metadata").has("resourceVersion")) {
            meta.set("resourceVersion", list.path("metadata").get("resourceVersion"));
        }
        ArrayNode defs = table.putArray("columnDefinitions");
        for (Column c : columns) {
            defs.addObject().put("name", c.name()).put("type", c.type()).put("format", c.name().equals("Name") ? "name" : "")
                    .put("description", c.name()).put("priority", c.priority());
        }
        ArrayNode rows = table.putArray("rows");
        List<JsonNode> items = new ArrayList<>();
        if (list.has("items")) {
            list.get("items").forEach(items::add);
        } else {
            items.add(list);
        }
        for (JsonNode item : items) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            for (Column c : columns) {
                Object v = c.cell().apply(item);
                if (v instanceof Integer i) {
                    cells.add(i);
                } else {
                    cells.add(String.valueOf(v));
                }
            }
            row.set("object", item);
        }
        return table;
    }

    private static List<Column> columns(String plural, Instant now) {
        Column name = new Column("Name", "string", 0, o -> o.path("metadata").path("name").asString());
        Column age = new Column("Age", "string", 0, o -> age(o.path("metadata").path("creationTimestamp").asString(""), now));
        return switch (plural) {
            case "pods" -> List.of(name,
                    new Column("Ready", "string", 0, ServerTables::podReady),
                    new Column("Status", "string", 0, ServerTables::podStatus),
                    new Column("Restarts", "string", 0, ServerTables::podRestarts),
                    age,
                    new Column("IP", "string", 1, o -> orNone(o.path("status").path("podIP").asString(""))),
                    new Column("Node", "string", 1, o -> orNone(o.path("spec").path("nodeName").asString(""))),
                    new Column("Nominated Node", "string", 1, o -> orNone(o.path("status").path("nominatedNodeName").asString(""))),
                    new Column("Readiness Gates", "string", 1, o -> "<none>"));
            case "nodes" -> List.of(name,
                    new Column("Status", "string", 0, ServerTables::nodeStatus),
                    new Column("Roles", "string", 0, ServerTables::nodeRoles),
                    age,
                    new Column("Version", "string", 0, o -> o.path("status").path("nodeInfo").path("kubeletVersion").asString("")),
                    new Column("Internal-IP", "string", 1, o -> nodeAddress(o, "InternalIP")),
                    new Column("External-IP", "string", 1, o -> nodeAddress(o, "ExternalIP")),
                    new Column("OS-Image", "string", 1, o -> o.path("status").path("nodeInfo").path("osImage").asString("<unknown>")),
                    new Column("Kernel-Version", "string", 1, o -> o.path("status").path("nodeInfo").path("kernelVersion").asString("<unknown>")),
                    new Column("Container-Runtime", "string", 1,
                            o -> o.path("status").path("nodeInfo").path("containerRuntimeVersion").asString("<unknown>")));
            case "events" -> List.of(
                    new Column("Last Seen", "string", 0, o -> age(firstNonEmpty(o.path("lastTimestamp").asString(""),
                            o.path("eventTime").asString(""), o.path("metadata").path("creationTimestamp").asString("")), now)),
                    new Column("Type", "string", 0, o -> o.path("type").asString("")),
                    new Column("Reason", "string", 0, o -> o.path("reason").asString("")),
                    new Column("Object", "string", 0, o -> o.path("involvedObject").path("kind").asString("").toLowerCase() + "/"
                            + o.path("involvedObject").path("name").asString("")),
                    new Column("Message", "string", 0, o -> o.path("message").asString("").strip()),
                    new Column("Source", "string", 1, o -> o.path("source").path("component").asString("")
                            + (o.path("source").path("host").asString("").isEmpty() ? "" : ", " + o.path("source").path("host").asString())),
                    new Column("Count", "integer", 1, o -> o.path("count").asInt(1)),
                    new Column("Name", "string", 1, o -> o.path("metadata").path("name").asString()));
            case "leases" -> List.of(name,
                    new Column("Holder", "string", 0, o -> o.path("spec").path("holderIdentity").asString("")),
                    age);
            default -> List.of(name, new Column("Created At", "date", 0,
                    o -> o.path("metadata").path("creationTimestamp").asString("")));
        };
    }

    private static String podReady(JsonNode pod) {
        int total = pod.path("spec").path("containers").size();
        int ready = 0;
        for (JsonNode c : pod.path("status").path("containerStatuses")) {
            if (c.path("ready").asBoolean(false)) {
                ready++;
            }
        }
        return ready + "/" + total;
    }

    private static String podRestarts(JsonNode pod) {
        int restarts = 0;
        for (JsonNode c : pod.path("status").path("containerStatuses")) {
            restarts += c.path("restartCount").asInt(0);
        }
        return Integer.toString(restarts);
    }

    /** The STATUS column as the apiserver's pod printer derives it (a subset: no sidecar or init progress detail). */
    private static String podStatus(JsonNode pod) {
        JsonNode status = pod.path("status");
        String reason = status.path("phase").asString("");
        if (!status.path("reason").asString("").isEmpty()) {
            reason = status.path("reason").asString();
        }
        int initTotal = pod.path("spec").path("initContainers").size();
        int i = 0;
        boolean initializing = false;
        for (JsonNode c : status.path("initContainerStatuses")) {
            JsonNode st = c.path("state");
            if (st.has("terminated") && st.path("terminated").path("exitCode").asInt() == 0) {
                i++;
                continue;
            }
            initializing = true;
            if (st.has("terminated")) {
                reason = "Init:" + firstNonEmpty(st.path("terminated").path("reason").asString(""),
                        "ExitCode:" + st.path("terminated").path("exitCode").asInt());
            } else if (st.has("waiting") && !st.path("waiting").path("reason").asString("").isEmpty()
                    && !st.path("waiting").path("reason").asString().equals("PodInitializing")) {
                reason = "Init:" + st.path("waiting").path("reason").asString();
            } else {
                reason = "Init:" + i + "/" + initTotal;
            }
            break;
        }
        if (!initializing) {
            boolean hasRunning = false;
            List<JsonNode> statuses = new ArrayList<>();
            status.path("containerStatuses").forEach(statuses::add);
            for (int k = statuses.size() - 1; k >= 0; k--) {
                JsonNode st = statuses.get(k).path("state");
                if (st.has("waiting") && !st.path("waiting").path("reason").asString("").isEmpty()) {
                    reason = st.path("waiting").path("reason").asString();
                } else if (st.has("terminated")) {
                    JsonNode t = st.path("terminated");
                    reason = !t.path("reason").asString("").isEmpty() ? t.path("reason").asString()
                            : t.path("signal").asInt(0) != 0 ? "Signal:" + t.path("signal").asInt()
                            : "ExitCode:" + t.path("exitCode").asInt();
                } else if (st.has("running") && statuses.get(k).path("ready").asBoolean(false)) {
                    hasRunning = true;
                }
            }
            if (reason.equals("Completed") && hasRunning) {
                reason = "Running";
            }
        }
        if (pod.path("metadata").has("deletionTimestamp") && !"NodeLost".equals(status.path("reason").asString(""))) {
            reason = "Terminating";
        }
        return reason;
    }

    private static String nodeStatus(JsonNode node) {
        String ready = "Unknown";
        for (JsonNode c : node.path("status").path("conditions")) {
            if ("Ready".equals(c.path("type").asString(""))) {
                ready = switch (c.path("status").asString("")) {
                    case "True" -> "Ready";
                    case "False" -> "NotReady";
                    default -> "Unknown";
                };
            }
        }
        if (ready.equals("Unknown") && node.path("status").path("conditions").isEmpty()) {
            ready = "Unknown";
        }
        return node.path("spec").path("unschedulable").asBoolean(false) ? ready + ",SchedulingDisabled" : ready;
    }

    private static String nodeRoles(JsonNode node) {
        List<String> roles = new ArrayList<>();
        for (Map.Entry<String, JsonNode> label : node.path("metadata").path("labels").properties()) {
            if (label.getKey().startsWith("node-role.kubernetes.io/")) {
                roles.add(label.getKey().substring("node-role.kubernetes.io/".length()));
            }
        }
        return roles.isEmpty() ? "<none>" : String.join(",", roles);
    }

    private static String nodeAddress(JsonNode node, String type) {
        for (JsonNode a : node.path("status").path("addresses")) {
            if (type.equals(a.path("type").asString(""))) {
                return a.path("address").asString("");
            }
        }
        return "<none>";
    }

    private static String orNone(String s) {
        return s.isEmpty() ? "<none>" : s;
    }

    private static String firstNonEmpty(String... values) {
        for (String v : values) {
            if (v != null && !v.isEmpty()) {
                return v;
            }
        }
        return "";
    }

    /** apimachinery's {@code duration.HumanDuration}, as the AGE column shows it. */
    static String age(String timestamp, Instant now) {
        if (timestamp.isEmpty()) {
            return "<unknown>";
        }
        Instant t;
        try {
            t = Instant.parse(timestamp);
        } catch (RuntimeException e) {
            return "<unknown>";
        }
        Duration d = Duration.between(t, now);
        long s = Math.max(0, d.toSeconds());
        if (s < 120) {
            return s + "s";
        }
        long m = s / 60;
        if (m < 10) {
            return s % 60 == 0 ? m + "m" : m + "m" + (s % 60) + "s";
        }
        if (m < 180) {
            return m + "m";
        }
        long h = m / 60;
        if (h < 8) {
            return m % 60 == 0 ? h + "h" : h + "h" + (m % 60) + "m";
        }
        if (h < 48) {
            return h + "h";
        }
        long days = h / 24;
        return days < 8 && h % 24 != 0 ? days + "d" + (h % 24) + "h" : days + "d";
    }
}
