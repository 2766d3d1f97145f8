package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Pod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.util.List;

/**
 * The pods bound to this node in the apiserver ({@code pkg/kubelet/config/apiserver.go}): a list and watch of pods
 * in every namespace with the field selector {@code spec.nodeName=<node>} ({@link PodListWatch}), which the
 * apiserver evaluates, so the node only ever receives its own pods. Running pods are untouched while the apiserver
 * is away: nothing is sent.
 *
 * <p>Once the first list is in, the source sends a {@link PodOperation#SET} of all the pods (the "source ready"
 * signal), then one update per watch event: a SET of 110 pods per status change of one pod would cost a deep copy
 * of every pod each time.
 *
 * <p>Lifecycle: {@link #start()} once, {@link #close()} to stop.
 */
public final class ApiserverSource implements Closeable {
    private static final Logger log = LoggerFactory.getLogger(ApiserverSource.class);

    private final PodListWatch listWatch;
    private final String nodeName;
    private final PodUpdateSink sink;
    private final Object lock = new Object();
    /** Events before the first SET are part of the initial list and go out in it. */
    private boolean synced;
    private volatile PodListWatch.Watch watch;

    public ApiserverSource(PodListWatch listWatch, String nodeName, PodUpdateSink sink) {
        this.listWatch = listWatch;
        this.nodeName = nodeName;
        this.sink = sink;
    }

    public void start() {
        watch = listWatch.start(nodeName, new PodListWatch.Handler() {
            @Override
            public void listed(List<Pod> pods) {
                synchronized (lock) {
                    log.info("Pods bound to this node listed from the apiserver: {}", pods.size());
                    sink.send(PodUpdate.set(PodSources.API, pods));
                    synced = true;
                }
            }

            @Override
            public void added(Pod pod) {
                send(PodOperation.ADD, pod);
            }

            @Override
            public void updated(Pod pod) {
                send(PodOperation.UPDATE, pod);
            }

            @Override
            public void deleted(Pod pod) {
                send(PodOperation.REMOVE, pod);
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
        PodListWatch.Watch w = watch;
        if (w != null) {
            w.close();
        }
    }
}
