package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jkubelet.core.config.PodListWatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pods bound to a node through fabric8's informer, which is the reflector: it lists, watches from the list's
 * resourceVersion, resumes from the last resourceVersion seen after a dropped watch, relists on {@code 410 Gone},
 * and reconnects with back-off while the apiserver is away. The field selector goes to the apiserver, which
 * evaluates it, so the node only ever receives its own pods.
 */
public final class Fabric8PodListWatch implements PodListWatch {
    private static final Logger log = LoggerFactory.getLogger(Fabric8PodListWatch.class);

    private final KubernetesClient client;

    public Fabric8PodListWatch(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Watch start(String nodeName, Handler handler) {
        // Resync 0: upstream's pod reflector has no resync; the kubelet's own sync loop resyncs pods.
        SharedIndexInformer<Pod> informer = client.pods().inAnyNamespace().withField("spec.nodeName", nodeName)
                .runnableInformer(0);
        informer.exceptionHandler((started, t) -> {
            log.warn("Pod list/watch for node {} failed, retrying: {}", nodeName, t.toString());
            return true; // keep trying: losing the apiserver must never stop the source for good
        });
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                handler.added(pod);
            }

            @Override
            public void onUpdate(Pod oldPod, Pod newPod) {
                handler.updated(newPod);
            }

            @Override
            public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
                handler.deleted(pod);
            }
        });
        informer.start().whenComplete((ok, error) -> {
            if (error != null) {
                log.warn("Pod list/watch stopped: {}", error.toString());
                return;
            }
            handler.listed(informer.getStore().list());
        });
        return informer::stop;
    }
}
