package io.jkubelet.core.kuberuntime;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.Container;

import java.io.UncheckedIOException;

/**
 * The hash of a container spec the kubelet stores on the container it creates (upstream
 * {@code HashContainer}: FNV-32a over the serialized spec, printed in hex). A running container whose
 * stored hash differs from its spec's is restarted: that is how an edited container restarts alone.
 * Resources are left out, as upstream does since in-place resize, so that only a real spec change counts.
 */
public final class ContainerHash {
    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .configure(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY, true)
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
            .build();

    private ContainerHash() {}

    public static String of(Container container) {
        Container copy = new io.fabric8.kubernetes.api.model.ContainerBuilder(container).withResources(null).build();
        byte[] json;
        try {
            json = CANONICAL.writeValueAsBytes(copy);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        return Integer.toHexString(fnv32a(json));
    }

    static int fnv32a(byte[] data) {
        int hash = 0x811c9dc5;
        for (byte b : data) {
            hash ^= (b & 0xff);
            hash *= 0x01000193;
        }
        return hash;
    }

}
