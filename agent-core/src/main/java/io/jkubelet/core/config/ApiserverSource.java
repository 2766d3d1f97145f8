package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.util.List;

/**
 * The pods bound to this node in the apiserver ({@code pkg/kubelet/config/apiserver.go}): a list and watch of pods
 * in every namespace with the field selector {@code spec.nodeName=<node>}, which the apiserver evaluates, so the
 * node only ever receives its own pods.
 *
 * <p>fabric8's informer is the reflector: it lists, watches from the list's resourceVersion, resumes from the last
 * resourceVersion seen after a dropped watch, relists on {@code 410 Gone}, and reconnects with back-off while the
 * apiserver is away (running pods are untouched meanwhile: nothing is sent). Once the first list is in, the source
 * sends a {@link PodOperation#SET} of all the pods (the "source ready" signal), then one update per watch event: a
 * SET of 110 pods per status change of one pod would cost a deep copy of every pod each time.
 *
 * <p>Lifecycle: {@link #start()} once, {@link #close()} to stop.
 */
public final class ApiserverSource implements Closeable {
    private static final Logger log = LoggerFactory.getLogger(ApiserverSource.class);

    private final SharedIndexInformer<Pod> informer;
    private final PodUpdateSink sink;
    private final Object lock = new Object();
    /** Events before the first SET are part of the initial list and go out in it. */
    private boolean synced;

    public ApiserverSource(KubernetesClient client, String nodeName, PodUpdateSink sink) {
        this.sink = sink;
        // Resync 0: upstream's pod reflector has no resync; the kubelet's own sync loop resyncs pods.
        this.informer = client.pods().inAnyNamespace().withField("spec.nodeName", nodeName).runnableInformer(0);
        informer.exceptionHandler((started, t) -> {
            log.warn("Pod list/watch for node {} failed, retrying: {}", nodeName, t.toString());
            return true; // keep trying: losing the apiserver must never stop the source for good
        });
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                send(PodOperation.ADD, pod);
            }

            @Override
            public void onUpdate(Pod oldPod, Pod newPod) {
                send(PodOperation.UPDATE, newPod);
            }

            @Override
            public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
                send(PodOperation.REMOVE, pod);
            }
        });
    }

    public void start() {
        informer.start().whenComplete((ok, error) -> {
            if (error != null) {
                log.warn("Pod list/watch stopped: {}", error.toString());
                return;
            }
            synchronized (lock) {
                List<Pod> all = informer.getStore().list();
                log.info("Pods bound to this node listed from the apiserver: {}", all.size());
                sink.send(PodUpdate.set(PodSources.API, all));
                synced = true;
            }
        });
    }

    private void send(PodOperation op, Pod pod) {
        synchronized (lock) {
            if (synced) {
                sink.send(new PodUpdate(List.of(pod), op, PodSources.API));
            }
        }
    }

    /** Whether the first list has been delivered. */
    public boolean hasSynced() {
        synchronized (lock) {
            return synced;
        }
    }

    @Override
    public void close() {
        informer.stop();
    }
}
