package io.jkubelet.server.json;

import io.fabric8.kubernetes.api.model.Pod;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Encodes pods as the kubelet's {@code encodePods} does: a v1 {@code PodList} written by Go's {@code
 * encoding/json} through the legacy v1 codec.
 *
 * <p>That means: {@code {"kind":"PodList","apiVersion":"v1","metadata":{},"items":[...]}} followed by a
 * newline (the codec's {@code json.Encoder} adds it); {@code "items":null} when there are no pods (the
 * kubelet appends to a nil slice); each item without {@code kind}/{@code apiVersion} (pods inside the
 * kubelet carry no type meta, so Go leaves them out); and each pod laid out by {@link GoShapeWriter}.
 *
 * <p>A pod's JSON is kept while its metadata, spec and status objects stay the same ones (the kubelet
 * replaces them on every change and never changes them in place), so a request re-encodes only the pods
 * that changed since the last one, and answers with the last response's bytes when none did: 110 pods
 * take about 3 ms to encode, far too long to spend on every request of a busy scraper.
 *
 * <p>Thread-safe.
 */
public final class PodListEncoder {

    private static final byte[] HEAD = "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":"
            .getBytes(StandardCharsets.US_ASCII);

    /** One pod's JSON and the objects it was made from (compared by identity). */
    private record Item(Object metadata, Object spec, Object status, byte[] json) {
        boolean encodes(Pod pod) {
            return metadata == pod.getMetadata() && spec == pod.getSpec() && status == pod.getStatus();
        }
    }

    /** The last response and the items it was made of. */
    private record Snapshot(List<Item> items, byte[] json) {}

    private final ObjectMapper mapper;
    private final GoShapeWriter writer;
    private final ConcurrentHashMap<Object, Item> items = new ConcurrentHashMap<>();
    private volatile Snapshot last = new Snapshot(List.of(), null);

    public PodListEncoder() {
        this(KubeJson.mapper(), new GoShapeWriter(GoShapes.pod()));
    }

    PodListEncoder(ObjectMapper mapper, GoShapeWriter writer) {
        this.mapper = mapper;
        this.writer = writer;
    }

    /** The JSON bytes of a PodList holding {@code pods}, in order. The caller must not change them. */
    public byte[] encode(List<Pod> pods) {
        if (pods.isEmpty()) {
            return concat(List.of());
        }
        List<Item> current = new ArrayList<>(pods.size());
        for (Pod pod : pods) {
            current.add(item(pod));
        }
        Snapshot previous = last;
        if (previous.json() != null && sameItems(previous.items(), current)) {
            return previous.json();
        }
        byte[] json = concat(current);
        last = new Snapshot(current, json);
        if (items.size() > 2 * pods.size() + 16) {
            // Forget pods that are gone.
            Set<Object> keys = new HashSet<>();
            for (Pod pod : pods) {
                keys.add(key(pod));
            }
            items.keySet().retainAll(keys);
        }
        return json;
    }

    private Item item(Pod pod) {
        Object key = key(pod);
        Item cached = items.get(key);
        if (cached != null && cached.encodes(pod)) {
            return cached;
        }
        Item fresh = new Item(pod.getMetadata(), pod.getSpec(), pod.getStatus(), encodeItem(pod));
        items.put(key, fresh);
        return fresh;
    }

    private static Object key(Pod pod) {
        String uid = pod.getMetadata() == null ? null : pod.getMetadata().getUid();
        // Pods without a UID (never from the kubelet) are keyed by their metadata object itself.
        return uid != null ? uid : pod.getMetadata() == null ? pod : pod.getMetadata();
    }

    private static boolean sameItems(List<Item> a, List<Item> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }

    private byte[] encodeItem(Pod pod) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator gen = mapper.createGenerator(out)) {
            ObjectNode tree = mapper.valueToTree(pod);
            tree.remove("kind");
            tree.remove("apiVersion");
            writer.writeStruct(gen, tree, "Pod");
        }
        return out.toByteArray();
    }

    /** {@code {"kind":"PodList",...,"items":[a,b]}} and Go's trailing newline; {@code "items":null} when empty. */
    private static byte[] concat(List<Item> items) {
        int size = HEAD.length + 4 + 2 + items.size();
        for (Item item : items) {
            size += item.json().length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(size);
        out.writeBytes(HEAD);
        if (items.isEmpty()) {
            out.writeBytes("null".getBytes(StandardCharsets.US_ASCII));
        } else {
            out.write('[');
            for (int i = 0; i < items.size(); i++) {
                if (i > 0) {
                    out.write(',');
                }
                out.writeBytes(items.get(i).json());
            }
            out.write(']');
        }
        out.write('}');
        out.write('\n');
        return out.toByteArray();
    }
}
