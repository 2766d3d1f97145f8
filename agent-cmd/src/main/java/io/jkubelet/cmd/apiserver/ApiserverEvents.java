package io.jkubelet.cmd.apiserver;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.events.ApiserverEventRecorder;
import io.jkubelet.core.events.ClientEventSink;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.LoggingEventRecorder;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The kubelet's event recorder (upstream {@code makeEventRecorder}): events always go to the log; with an
 * apiserver they are also written there, through a client of their own as upstream's {@code EventClient},
 * limited by {@code eventRecordQPS}/{@code eventBurst} rather than {@code kubeAPIQPS}, so that an event
 * storm never slows down pod status updates.
 */
public final class ApiserverEvents {
    /** {@code eventRecordQPS} when the configuration leaves it unset. */
    static final int DEFAULT_EVENT_RECORD_QPS = 50;

    private ApiserverEvents() {}

    /**
     * @param closeables where the recorder and its client are registered to be closed (the recorder last in, first out)
     */
    public static EventRecorder recorder(Optional<KubernetesClient> kubeClient, String nodeName, KubeletConfiguration config,
            String kubeletVersion, Clock clock, LoggingEventRecorder logged, List<AutoCloseable> closeables) {
        if (kubeClient.isEmpty()) {
            return logged;
        }
        // The limit is the recorder's own (eventRecordQPS); the event client itself is not throttled again.
        KubernetesClient eventClient = KubeClients.create(new ConfigBuilder(kubeClient.get().getConfiguration()).build(),
                -1, 0, kubeletVersion);
        closeables.add(eventClient);
        int qps = config.eventRecordQPS() == null ? DEFAULT_EVENT_RECORD_QPS : config.eventRecordQPS();
        ApiserverEventRecorder recorder = ApiserverEventRecorder.start(new ClientEventSink(eventClient), nodeName, logged,
                clock, ApiserverEventRecorder.limiter(qps, config.eventBurst(), clock));
        closeables.add(recorder);
        return recorder;
    }
}
