package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.jkubelet.core.config.PodCodec;

/**
 * The hash of a container spec the kubelet stores on the container it creates (upstream
 * {@code HashContainer}: FNV-32a over the serialized spec, printed in hex). A running container whose
 * stored hash differs from its spec's is restarted: that is how an edited container restarts alone.
 * Resources are left out, as upstream does since in-place resize, so that only a real spec change counts.
 */
public final class ContainerHash {
    private ContainerHash() {}

    public static String of(Container container) {
        Container copy = new ContainerBuilder(container).withResources(null).build();
        return Integer.toHexString(fnv32a(PodCodec.canonicalBytes(copy)));
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
