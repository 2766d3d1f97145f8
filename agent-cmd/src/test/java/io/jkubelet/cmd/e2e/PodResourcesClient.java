package io.jkubelet.cmd.e2e;

import io.grpc.ManagedChannel;
import io.jkubelet.deviceplugin.UnixSockets;
import io.jkubelet.podresources.v1.PodResourcesApi;
import io.jkubelet.podresources.v1.PodResourcesListerGrpc;

import java.nio.file.Path;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * A monitoring agent's client of the pod-resources API ({@code <root-dir>/pod-resources/kubelet.sock}, v1), as a GPU
 * exporter reads it.
 */
final class PodResourcesClient {
    private PodResourcesClient() {}

    static PodResourcesApi.ListPodResourcesResponse list(Path rootDir) {
        ManagedChannel ch = UnixSockets.channel(rootDir.resolve("pod-resources/kubelet.sock"));
        try {
            return PodResourcesListerGrpc.newBlockingStub(ch).withDeadlineAfter(10, TimeUnit.SECONDS)
                    .list(PodResourcesApi.ListPodResourcesRequest.getDefaultInstance());
        } finally {
            UnixSockets.close(ch);
        }
    }

    /**
     * The devices of each container that holds some, as "namespace/pod/container resource=ID,ID" (pods of other tests
     * and containers without devices are left out). Kubelets differ in how they group
     * them: v1.20 puts a container's devices of one NUMA node in one entry (topology -1 for none), v1.30 one device
     * per entry with no topology when the plugin gave none; the devices are the same.
     */
    static TreeSet<String> devices(PodResourcesApi.ListPodResourcesResponse answer, String podPrefix) {
        TreeSet<String> out = new TreeSet<>();
        for (var pod : answer.getPodResourcesList()) {
            if (!pod.getName().startsWith(podPrefix)) {
                continue;
            }
            for (var c : pod.getContainersList()) {
                TreeSet<String> ids = new TreeSet<>();
                String resource = "";
                for (var d : c.getDevicesList()) {
                    resource = d.getResourceName();
                    ids.addAll(d.getDeviceIdsList());
                }
                if (ids.isEmpty()) {
                    continue;
                }
                out.add(pod.getNamespace() + "/" + pod.getName().substring(podPrefix.length()) + "/" + c.getName() + " "
                        + resource + "=" + String.join(",", ids));
            }
        }
        return out;
    }
}
