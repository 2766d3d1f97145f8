package io.jkubelet.cmd.e2e.apiserver;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * fabric8's CRUD dispatcher made to behave like a real kube-apiserver where a kubelet and kubectl notice the
 * difference:
 * <ul>
 * <li>field selector {@code spec.nodeName=<node>} on list and watch of pods (the kubelet's pod source);</li>
 * <li>the status subresource: {@code PUT/PATCH .../status} changes only status, an update of the main resource keeps
 *     it; a created pod starts {@code Pending} with its QoS class;</li>
 * <li>strategic merge patches (the kubelet's status and node patches), with a {@code metadata.uid} precondition;</li>
 * <li>graceful deletion of a pod bound to a node: DELETE only sets {@code deletionTimestamp} and
 *     {@code deletionGracePeriodSeconds} (a MODIFIED event); the object goes once deleted with grace 0;</li>
 * <li>discovery documents and server-side Tables for kubectl; HTTP (non-WebSocket) watches end with
 *     410 Expired after a second, so kubectl's reflectors relist instead of hanging;</li>
 * <li>Status bodies on 404 and 409, 200 (not 202) on PATCH.</li>
 * </ul>
 * Every request is counted by verb and resource ({@code GET /mock/requests}); the first write that makes a pod
 * {@code Running} is timed ({@code GET /mock/pods-running}), for the apiserver load benchmark.
 */
public final class ApiserverDispatcher extends KubernetesCrudDispatcher {
    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SMP = "application/strategic-merge-patch+json";
    /** Core kinds whose status is a subresource (the rest of the object cannot change it, and it cannot change the rest). */
    private static final Set<String> STATUS_SUBRESOURCE = Set.of("pods", "nodes", "namespaces", "services",
            "persistentvolumes", "persistentvolumeclaims", "replicationcontrollers", "resourcequotas");

    private final Clock clock;
    private final String serverAddress;
    private final RequestStats stats = new RequestStats();
    private final Object writes = new Object();

    public ApiserverDispatcher(String serverAddress, Clock clock) {
        this.serverAddress = serverAddress;
        this.clock = clock;
        installExtractor(new NodeNameExtractor());
    }

    RequestStats stats() {
        return stats;
    }

    /**
     * fabric8 matches list/watch queries against attributes extracted from each stored object; the stock extractor
     * knows only name, namespace and labels. Ours adds {@code spec.nodeName}, so that the field selector the kubelet
     * sends filters as on a real apiserver, for lists and for watches (an object moving onto the node is ADDED).
     */
    private static final class NodeNameExtractor extends KubernetesAttributesExtractor {
        @Override
        public AttributeSet extract(HasMetadata resource) {
            AttributeSet set = super.extract(resource);
            if ("Pod".equals(resource.getKind()) && resource instanceof GenericKubernetesResource g
                    && g.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
                    && spec.get("nodeName") instanceof String node && !node.isEmpty()) {
                set = set.add(new Attribute("spec.nodeName", node));
            }
            return set;
        }
    }

    private void installExtractor(KubernetesAttributesExtractor extractor) {
        try {
            Field crdField = KubernetesAttributesExtractor.class.getDeclaredField("customResourceDefinitionProcessor");
            crdField.setAccessible(true);
            crdField.set(extractor, crdField.get(getAttributeExtractor()));
            setField(io.fabric8.mockwebserver.crud.CrudDispatcher.class, this, "attributeExtractor", extractor);
            setField(KubernetesCrudDispatcher.class, this, "kubernetesAttributesExtractor", extractor);
            Field post = KubernetesCrudDispatcher.class.getDeclaredField("postHandler");
            post.setAccessible(true);
            Object postHandler = post.get(this);
            setField(postHandler.getClass(), postHandler, "attributeExtractor", extractor);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this fabric8 mock server version cannot take a field-selector extractor: " + e, e);
        }
    }

    private static void setField(Class<?> owner, Object target, String name, Object value) throws ReflectiveOperationException {
        Field f = owner.getDeclaredField(name);
        f.setAccessible(true);
        f.set(target, value);
    }

    @Override
    public boolean isStatusSubresourceEnabledForResource(String path) {
        return ResourcePath.parse(path).map(p -> p.group().isEmpty() && STATUS_SUBRESOURCE.contains(p.resource())).orElse(false)
                || super.isStatusSubresourceEnabledForResource(path);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        long receivedNanos = RequestStats.nowNanos(clock);
        String path = request.getPath();
        String method = request.getMethod();
        String plainPath = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        if (plainPath.startsWith("/mock/")) {
            return mockEndpoint(plainPath);
        }
        Optional<String> discovery = Discovery.document(plainPath, serverAddress);
        if (discovery.isPresent() && method.equals("GET")) {
            stats.count("get", "discovery");
            return json(200, discovery.get());
        }
        Optional<ResourcePath> parsed = ResourcePath.parse(path);
        if (parsed.isEmpty()) {
            stats.count(method.toLowerCase(), "other");
            return status(404, "NotFound", "the server could not find the requested resource");
        }
        ResourcePath rp = parsed.get();
        stats.count(rp.verb(method), rp.resourceWithSubresource());
        MockResponse response = switch (method) {
            case "GET" -> get(request, rp);
            case "POST" -> { synchronized (writes) { yield create(request, rp); } }
            case "PUT", "PATCH" -> { synchronized (writes) { yield update(request, rp, receivedNanos); } }
            case "DELETE" -> { synchronized (writes) { yield delete(request, rp); } }
            default -> status(405, "MethodNotAllowed", method + " is not supported");
        };
        return withStatusBody(response, rp);
    }

    private MockResponse get(RecordedRequest request, ResourcePath rp) {
        if (rp.watch()) {
            String upgrade = request.getHeader("Upgrade");
            if (upgrade != null && upgrade.equalsIgnoreCase("websocket")) {
                return super.dispatch(request);
            }
            // kubectl watches over a streaming HTTP response, which this mock server cannot hold open: end it as a
            // real apiserver ends a watch whose resourceVersion is too old; the client relists and watches again.
            return json(200, """
                    {"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",\
                    "message":"too old resource version","reason":"Expired","code":410}}
                    """).setBodyDelay(1, TimeUnit.SECONDS);
        }
        MockResponse response = super.dispatch(request);
        if (response.code() == 200 && ServerTables.wantsTable(request.getHeader("Accept"))) {
            JsonNode body = JSON.readTree(new String(response.getBody().getBytes(), StandardCharsets.UTF_8));
            return json(200, JSON.writeValueAsString(ServerTables.table(rp.resource(), body, clock.instant())));
        }
        return response;
    }

    /**
     * Creation as the apiserver does it: a random UID (fabric8 counts from 1 in every process, and two agents on one
     * Docker engine would then name sandboxes alike), generateName, 409 AlreadyExists, a new pod's defaults and
     * Pending status, and the status of any other kind kept (a kubelet registers its node with its status).
     */
    private MockResponse create(RecordedRequest request, ResourcePath rp) {
        if (rp.name() != null) {
            return super.dispatch(request);
        }
        JsonNode body = JSON.readTree(request.getUtf8Body());
        if (!body.isObject()) {
            return status(400, "BadRequest", "the body of a create must be a JSON object");
        }
        ObjectNode object = (ObjectNode) body;
        ObjectNode meta = object.has("metadata") ? (ObjectNode) object.get("metadata") : object.putObject("metadata");
        String name = meta.path("name").asString("");
        if (name.isEmpty()) {
            String prefix = meta.path("generateName").asString("");
            if (prefix.isEmpty()) {
                return status(422, "Invalid", rp.resource() + " \"\" is invalid: metadata.name: Required value: name or generateName is required");
            }
            name = prefix + UUID.randomUUID().toString().substring(0, 5);
            meta.put("name", name);
        }
        if (rp.namespace() != null) {
            String ns = meta.path("namespace").asString("");
            if (!ns.isEmpty() && !ns.equals(rp.namespace())) {
                return status(400, "BadRequest", "the namespace of the provided object does not match the namespace sent on the request");
            }
            meta.put("namespace", rp.namespace());
        }
        String plainPath = request.getPath().contains("?") ? request.getPath().substring(0, request.getPath().indexOf('?')) : request.getPath();
        String itemPath = (plainPath.endsWith("/") ? plainPath : plainPath + "/") + name;
        if (findResource(getKey(itemPath)) != null) {
            return status(409, "AlreadyExists", rp.resource() + " \"" + name + "\" already exists");
        }
        if (rp.group().isEmpty() && rp.resource().equals("pods")) {
            PodDefaults.apply(object, rp.namespace());
        }
        meta.remove("deletionTimestamp");
        meta.remove("deletionGracePeriodSeconds");
        meta.put("uid", UUID.randomUUID().toString());
        meta.put("creationTimestamp", clock.instant().truncatedTo(ChronoUnit.SECONDS).toString());
        meta.put("resourceVersion", Long.toString(requestResourceVersion()));
        meta.put("generation", 1);
        String stored = JSON.writeValueAsString(object);
        processEvent(itemPath, getKey(itemPath), null, null, stored);
        return json(201, stored);
    }

    /**
     * PUT and PATCH (strategic merge, JSON merge, JSON patch), done here rather than by fabric8, whose merge appends
     * lists and which deletes an object marked for deletion on any update. As on a real apiserver: {@code /status}
     * changes only status, the main resource cannot change status, deletionTimestamp, uid or creationTimestamp, a
     * sent resourceVersion or {@code metadata.uid} that differs from the stored one is a 409.
     */
    private MockResponse update(RecordedRequest request, ResourcePath rp, long receivedNanos) {
        if (rp.name() == null) {
            return status(405, "MethodNotAllowed", request.getMethod() + " needs an object name");
        }
        String itemPath = "/" + (rp.group().isEmpty() ? "api/v1" : "apis/" + rp.group() + "/" + rp.version())
                + (rp.namespace() == null ? "" : "/namespaces/" + rp.namespace()) + "/" + rp.resource() + "/" + rp.name();
        Map.Entry<AttributeSet, String> current = findResource(getKey(itemPath));
        if (current == null) {
            return status(404, "NotFound", rp.resource() + " \"" + rp.name() + "\" not found");
        }
        ObjectNode stored = (ObjectNode) JSON.readTree(current.getValue());
        JsonNode body = JSON.readTree(request.getUtf8Body());
        String contentType = request.getHeader("Content-Type") == null ? "" : request.getHeader("Content-Type");
        JsonNode sentMeta = body.path("metadata");
        JsonNode updated;
        if (request.getMethod().equals("PUT")) {
            updated = body;
        } else if (contentType.startsWith(SMP)) {
            updated = StrategicMergePatch.apply(stored, body);
        } else if (contentType.startsWith("application/merge-patch+json")) {
            updated = StrategicMergePatch.applyMergePatch(stored, body);
        } else if (contentType.startsWith("application/json-patch+json")) {
            try {
                updated = io.fabric8.zjsonpatch.JsonPatch.apply(body, stored);
            } catch (RuntimeException e) {
                return status(422, "Invalid", "the JSON patch cannot be applied: " + e.getMessage());
            }
            sentMeta = JSON.createObjectNode();
        } else {
            return status(415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media types include: "
                    + "application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json");
        }
        if (!updated.isObject()) {
            return status(400, "BadRequest", "the updated object is not a JSON object");
        }
        String storedUid = stored.path("metadata").path("uid").asString("");
        String sentUid = sentMeta.path("uid").asString("");
        if (!sentUid.isEmpty() && !sentUid.equals(storedUid)) {
            return status(409, "Conflict", "Operation cannot be fulfilled on " + rp.resource() + " \"" + rp.name()
                    + "\": Precondition failed: UID in precondition: " + sentUid + ", UID in object meta: " + storedUid);
        }
        String storedRv = stored.path("metadata").path("resourceVersion").asString("");
        String sentRv = sentMeta.path("resourceVersion").asString("");
        if (!sentRv.isEmpty() && !sentRv.equals(storedRv)) {
            return status(409, "Conflict", "Operation cannot be fulfilled on " + rp.resource() + " \"" + rp.name()
                    + "\": the object has been modified; please apply your changes to the latest version and try again");
        }
        ObjectNode result;
        boolean statusPath = "status".equals(rp.subresource());
        if (statusPath) {
            result = stored.deepCopy();
            if (updated.has("status")) {
                result.set("status", updated.get("status"));
            }
        } else {
            result = (ObjectNode) updated.deepCopy();
            if (isStatusSubresourceEnabledForResource(itemPath)) {
                if (stored.has("status")) {
                    result.set("status", stored.get("status"));
                } else {
                    result.remove("status");
                }
            }
        }
        ObjectNode meta = result.has("metadata") && result.get("metadata").isObject() ? (ObjectNode) result.get("metadata")
                : result.putObject("metadata");
        JsonNode storedMeta = stored.path("metadata");
        for (String kept : List.of("name", "namespace", "uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds")) {
            if (storedMeta.has(kept)) {
                meta.set(kept, storedMeta.get(kept));
            } else {
                meta.remove(kept);
            }
        }
        long generation = storedMeta.path("generation").asLong(1);
        if (!statusPath && !result.path("spec").equals(stored.path("spec"))) {
            generation++;
        }
        meta.put("generation", generation);
        if (result.equals(stored)) {
            return json(200, current.getValue());
        }
        meta.put("resourceVersion", Long.toString(requestResourceVersion()));
        String json = JSON.writeValueAsString(result);
        processEvent(itemPath, getKey(itemPath), current.getKey(), null, json);
        if (rp.group().isEmpty() && rp.resource().equals("pods") && "Running".equals(result.path("status").path("phase").asString(""))) {
            stats.podRunning(rp.namespace() + "/" + rp.name(), storedUid, receivedNanos);
        }
        return json(200, json);
    }

    private MockResponse delete(RecordedRequest request, ResourcePath rp) {
        if (rp.name() == null || !rp.group().isEmpty() || !rp.resource().equals("pods") || rp.subresource() != null) {
            return super.dispatch(request);
        }
        Map.Entry<AttributeSet, String> current = findResource(getKey(request.getPath()));
        if (current == null) {
            return status(404, "NotFound", "pods \"" + rp.name() + "\" not found");
        }
        ObjectNode pod = (ObjectNode) JSON.readTree(current.getValue());
        String body = request.getUtf8Body();
        JsonNode options = body == null || body.isBlank() ? JSON.createObjectNode() : JSON.readTree(body);
        String uid = pod.path("metadata").path("uid").asString("");
        String wantUid = options.path("preconditions").path("uid").asString("");
        if (!wantUid.isEmpty() && !wantUid.equals(uid)) {
            return status(409, "Conflict", "Operation cannot be fulfilled on pods \"" + rp.name()
                    + "\": Precondition failed: UID in precondition: " + wantUid + ", UID in object meta: " + uid);
        }
        String rv = pod.path("metadata").path("resourceVersion").asString("");
        String wantRv = options.path("preconditions").path("resourceVersion").asString("");
        if (!wantRv.isEmpty() && !wantRv.equals(rv)) {
            return status(409, "Conflict", "Operation cannot be fulfilled on pods \"" + rp.name()
                    + "\": Precondition failed: ResourceVersion in precondition: " + wantRv + ", ResourceVersion in object meta: " + rv);
        }
        long grace = gracePeriod(pod, options, rp);
        ObjectNode meta = (ObjectNode) pod.get("metadata");
        boolean hasFinalizers = meta.path("finalizers").size() > 0;
        if (grace > 0 || hasFinalizers) {
            Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
            if (meta.has("deletionTimestamp") && meta.path("deletionGracePeriodSeconds").asLong(Long.MAX_VALUE) <= grace) {
                // Already terminating with a shorter or equal grace period: a real apiserver changes nothing.
                return json(200, JSON.writeValueAsString(pod));
            }
            meta.put("deletionTimestamp", now.plusSeconds(grace).toString());
            meta.put("deletionGracePeriodSeconds", grace);
            meta.put("resourceVersion", Long.toString(requestResourceVersion()));
            String updated = JSON.writeValueAsString(pod);
            processEvent(request.getPath(), getKey(request.getPath()), current.getKey(), null, updated);
            return json(200, updated);
        }
        processEvent(request.getPath(), getKey(request.getPath()), current.getKey(), null, null);
        return json(200, JSON.writeValueAsString(pod));
    }

    /** The pod's grace period as the apiserver's pod strategy decides it (CheckGracefulDelete). */
    private static long gracePeriod(JsonNode pod, JsonNode options, ResourcePath rp) {
        long grace = pod.path("spec").path("terminationGracePeriodSeconds").asLong(30);
        if (options.has("gracePeriodSeconds") && !options.get("gracePeriodSeconds").isNull()) {
            grace = options.get("gracePeriodSeconds").asLong();
        } else if (rp.query().containsKey("gracePeriodSeconds")) {
            grace = Long.parseLong(rp.query().get("gracePeriodSeconds"));
        }
        // A pod no kubelet runs, or one that has finished, has nobody to wait for.
        String phase = pod.path("status").path("phase").asString("");
        if (pod.path("spec").path("nodeName").asString("").isEmpty() || phase.equals("Failed") || phase.equals("Succeeded")) {
            grace = 0;
        }
        return grace < 0 ? 1 : grace;
    }

    private MockResponse mockEndpoint(String path) {
        return switch (path) {
            case "/mock/requests" -> json(200, stats.countsJson());
            case "/mock/pods-running" -> json(200, stats.runningJson());
            case "/mock/healthz" -> json(200, "{\"ok\":true}");
            default -> status(404, "NotFound", path);
        };
    }

    /** Everything stored, for {@link StateFile}. */
    List<String> storedObjects() {
        synchronized (writes) {
            return new ArrayList<>(getMap().values());
        }
    }

    /** Puts back an object saved by {@link StateFile}, as it was (uid, resourceVersion), and keeps versions rising. */
    void restore(String object) {
        JsonNode node = JSON.readTree(object);
        String apiVersion = node.path("apiVersion").asString("v1");
        String kind = node.path("kind").asString("");
        String plural = kind.toLowerCase() + (kind.endsWith("s") ? "es" : "s");
        String ns = node.path("metadata").path("namespace").asString("");
        String path = (apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion)
                + (ns.isEmpty() ? "" : "/namespaces/" + ns) + "/" + plural + "/" + node.path("metadata").path("name").asString();
        synchronized (writes) {
            getMap().put(AttributeSet.merge(getKey(path), getAttributeExtractor().fromResource(object)), object);
            long rv = node.path("metadata").path("resourceVersion").asLong(0);
            while (requestResourceVersion() < rv) {
                // advance the counter past every restored version
            }
        }
    }

    private static MockResponse withStatusBody(MockResponse response, ResourcePath rp) {
        if ((response.code() == 404 || response.code() == 409) && (response.getBody() == null || response.getBody().size() == 0)) {
            String what = rp.resource() + (rp.name() == null ? "" : " \"" + rp.name() + "\"");
            return response.code() == 404 ? status(404, "NotFound", what + " not found")
                    : status(409, "AlreadyExists", what + " already exists");
        }
        return response;
    }

    static MockResponse json(int code, String body) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(body);
    }

    static MockResponse status(int code, String reason, String message) {
        ObjectNode s = JSON.createObjectNode();
        s.put("kind", "Status").put("apiVersion", "v1").putObject("metadata");
        s.put("status", "Failure").put("message", message).put("reason", reason).put("code", code);
        return json(code, JSON.writeValueAsString(s));
    }

    /** The defaults a real apiserver gives a new pod (defaulting + PrepareForCreate) that the kubelet relies on. */
    static final class PodDefaults {
        private PodDefaults() {}

        static void apply(ObjectNode pod, String namespace) {
            ObjectNode meta = pod.has("metadata") ? (ObjectNode) pod.get("metadata") : pod.putObject("metadata");
            if (namespace != null && !meta.has("namespace")) {
                meta.put("namespace", namespace);
            }
            ObjectNode spec = pod.has("spec") ? (ObjectNode) pod.get("spec") : pod.putObject("spec");
            putIfAbsent(spec, "restartPolicy", "Always");
            putIfAbsent(spec, "dnsPolicy", "ClusterFirst");
            putIfAbsent(spec, "schedulerName", "default-scheduler");
            if (!spec.has("terminationGracePeriodSeconds")) {
                spec.put("terminationGracePeriodSeconds", 30);
            }
            if (!spec.has("securityContext")) {
                spec.putObject("securityContext");
            }
            for (String list : List.of("initContainers", "containers")) {
                for (JsonNode c : spec.path(list)) {
                    ObjectNode container = (ObjectNode) c;
                    String image = container.path("image").asString("");
                    putIfAbsent(container, "imagePullPolicy",
                            image.endsWith(":latest") || !image.substring(image.lastIndexOf('/') + 1).contains(":") ? "Always" : "IfNotPresent");
                    putIfAbsent(container, "terminationMessagePath", "/dev/termination-log");
                    putIfAbsent(container, "terminationMessagePolicy", "File");
                    if (!container.has("resources")) {
                        container.putObject("resources");
                    }
                }
            }
            ObjectNode status = pod.putObject("status");
            status.put("phase", "Pending");
            status.put("qosClass", qosClass(spec));
        }

        private static void putIfAbsent(ObjectNode node, String field, String value) {
            if (!node.has(field)) {
                node.put(field, value);
            }
        }

        /** BestEffort without any request or limit, Guaranteed when every container limits cpu and memory at its requests. */
        static String qosClass(JsonNode spec) {
            boolean any = false;
            boolean guaranteed = true;
            List<JsonNode> containers = new ArrayList<>();
            spec.path("containers").forEach(containers::add);
            spec.path("initContainers").forEach(containers::add);
            for (JsonNode c : containers) {
                JsonNode requests = c.path("resources").path("requests");
                JsonNode limits = c.path("resources").path("limits");
                if (requests.size() > 0 || limits.size() > 0) {
                    any = true;
                }
                for (String r : List.of("cpu", "memory")) {
                    JsonNode limit = limits.get(r);
                    JsonNode request = requests.has(r) ? requests.get(r) : limit;
                    if (limit == null || !limit.equals(request)) {
                        guaranteed = false;
                    }
                }
            }
            return !any ? "BestEffort" : guaranteed ? "Guaranteed" : "Burstable";
        }
    }
}
