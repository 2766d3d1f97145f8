package io.jkubelet.core.cluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.cluster.fabric8.Fabric8CsiNodes;
import io.jkubelet.core.cluster.fabric8.Fabric8CsiObjects;
import io.jkubelet.core.cluster.fabric8.Fabric8EventSink;
import io.jkubelet.core.cluster.fabric8.Fabric8LeaseClient;
import io.jkubelet.core.cluster.fabric8.Fabric8MirrorPodClient;
import io.jkubelet.core.cluster.fabric8.Fabric8NodeClient;
import io.jkubelet.core.cluster.fabric8.Fabric8NodeLister;
import io.jkubelet.core.cluster.fabric8.Fabric8ObjectClient;
import io.jkubelet.core.cluster.fabric8.Fabric8PodListWatch;
import io.jkubelet.core.cluster.fabric8.Fabric8PodStatusClient;
import io.jkubelet.core.cluster.fabric8.Fabric8RuntimeClassLister;
import io.jkubelet.core.cluster.fabric8.Fabric8ServiceLister;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.config.ApiserverSource;
import io.jkubelet.core.config.PodUpdateSink;
import io.jkubelet.core.events.ApiserverEventRecorder;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.nodestatus.NodeIdentity;
import io.jkubelet.core.nodestatus.NodePressure;
import io.jkubelet.core.nodestatus.NodeVolumes;
import io.jkubelet.core.nodestatus.Sleeper;
import io.jkubelet.core.objects.ApiObjectManagers;
import io.jkubelet.core.objects.ChangeDetectionStrategy;
import io.jkubelet.core.objects.PersistentVolumeClient;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.pod.MirrorClient;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtimeclass.RuntimeClassManager;
import io.jkubelet.core.status.ApiStatusSync;
import io.jkubelet.core.status.StatusManager;
import io.jkubelet.core.util.StopSequence;
import io.jkubelet.core.volume.csi.CsiObjects;
import io.jkubelet.core.volume.csi.NodeInfoManager;
import io.jkubelet.core.volume.util.operationexecutor.NodeReader;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Everything of the node that talks to the apiserver, in one place (upstream's {@code kubeClient},
 * {@code eventClient} and {@code heartbeatClient} and what they feed): the objects pods refer to, the apiserver
 * pod source, mirror pods, the pod status writer, the event recorder and the node's status and lease. On a
 * standalone node ({@link #standalone()}) each is absent or its local stand-in, so that the core asks one
 * question ("connected?") in one place instead of carrying an optional client. Owns what it starts.
 *
 * <p>Connected, each part gets the port its package declares, implemented on fabric8's client
 * ({@code core.cluster.fabric8}): below this package no code sees the client.
 */
public final class ClusterSide implements AutoCloseable {
    /** {@code eventRecordQPS} when the configuration leaves it unset. */
    static final int DEFAULT_EVENT_RECORD_QPS = 50;
    /** How long {@link #close()} gives the clients, watches and the event queue to stop. */
    static final Duration CLOSE_DEADLINE = Duration.ofSeconds(2);

    private final KubernetesClient client;
    private final String kubeletVersion;
    private final Clock clock;
    private final PodObjects objects;
    /** What it started, stopped in reverse. */
    private final StopSequence owned = new StopSequence();
    /** The node status loop, once started: what {@link #registeredNode()} reads. */
    private volatile NodeSync nodeSync;
    /** This node's Node from the apiserver, watched, once the node status loop has started. */
    private volatile Fabric8NodeLister nodeLister;

    /** Makes the HTTP clients of the clients made here (the event client); null for fabric8's default. */
    private HttpClient.Factory httpClients;

    private ClusterSide(KubernetesClient client, String kubeletVersion, Clock clock, PodObjects objects) {
        this.client = client;
        this.kubeletVersion = kubeletVersion;
        this.clock = clock;
        this.objects = objects;
    }

    /** A node without an apiserver: objects fail with a message saying so, events go to the log only. */
    public static ClusterSide standalone() {
        return new ClusterSide(null, "", Clock.systemUTC(), PodObjects.standalone());
    }

    /**
     * A node whose {@code --kubeconfig} gave {@code client}. The Services of every namespace are watched from now
     * on (a container's service variables wait for their first listing).
     *
     * @param kubeletVersion the User-Agent's version of the event client made from {@code client}'s settings
     */
    public static ClusterSide connect(KubernetesClient client, String kubeletVersion, Clock clock) {
        return connect(client, kubeletVersion, clock, ChangeDetectionStrategy.CACHE,
                Duration.ofMinutes(1));
    }

    /**
     * As {@link #connect(KubernetesClient, String, Clock)}, reading ConfigMaps and Secrets by {@code strategy}.
     *
     * @param syncFrequency {@code syncFrequency}, which paces how long the Watch strategy keeps an unused watch
     */
    public static ClusterSide connect(KubernetesClient client, String kubeletVersion, Clock clock,
            ChangeDetectionStrategy strategy, Duration syncFrequency) {
        Fabric8ServiceLister services = new Fabric8ServiceLister(client);
        List<AutoCloseable> watches = new ArrayList<>();
        ClusterSide side = new ClusterSide(client, kubeletVersion, clock, ApiObjectManagers.podObjects(
                new Fabric8ObjectClient(client), clock, services, strategy, syncFrequency, watches::add));
        side.owned.add("service-lister", services);
        watches.forEach(w -> side.owned.add("object-watch", w));
        return side;
    }

    /**
     * As {@link #connect(KubernetesClient, String, Clock, ChangeDetectionStrategy, Duration)},
     * the event client's HTTP client made by {@code httpClients} as {@code client}'s was (the kubelet's rotating client
     * certificate: the settings alone hold no credential then).
     */
    public static ClusterSide connect(KubernetesClient client, String kubeletVersion, Clock clock,
            ChangeDetectionStrategy strategy, Duration syncFrequency, HttpClient.Factory httpClients) {
        ClusterSide side = connect(client, kubeletVersion, clock, strategy, syncFrequency);
        side.httpClients = httpClients;
        return side;
    }

    public boolean connected() {
        return client != null;
    }

    /** The ConfigMaps, Secrets, service account tokens and Services of the pods' volumes, env and pull secrets. */
    public PodObjects objects() {
        return objects;
    }

    /** The claims of the pods' volumes and their PersistentVolumes; standalone, each get fails saying there is no apiserver. */
    public PersistentVolumeClient persistentVolumes() {
        return client == null ? PersistentVolumeClient.STANDALONE : new Fabric8ObjectClient(client);
    }

    /**
     * The runtime handlers of the pods' RuntimeClasses (upstream makes its runtimeclass manager only with a kube
     * client): connected, from an informer on the cluster's RuntimeClasses, started now and stopped with this side;
     * standalone, one that fails any RuntimeClass but the default, saying the apiserver is needed.
     */
    public RuntimeClassManager runtimeClassManager() {
        if (client == null) {
            return RuntimeClassManager.standalone();
        }
        Fabric8RuntimeClassLister lister = new Fabric8RuntimeClassLister(client);
        owned.add("runtimeclass-lister", lister);
        return RuntimeClassManager.of(lister);
    }

    /**
     * The kubelet's event recorder (upstream {@code makeEventRecorder}): events always go to the log; connected,
     * they are also written to the apiserver through a client of their own, as upstream's {@code EventClient},
     * limited by {@code eventRecordQPS}/{@code eventBurst} rather than {@code kubeAPIQPS}, so that an event storm
     * never slows down pod status updates.
     */
    public EventRecorder eventRecorder(String nodeName, KubeletConfiguration config, LoggingEventRecorder logged) {
        if (client == null) {
            return logged;
        }
        // The limit is the recorder's own (eventRecordQPS); the event client itself is not throttled again.
        KubernetesClient eventClient = KubeClients.create(new ConfigBuilder(client.getConfiguration()).build(), -1, 0,
                kubeletVersion, httpClients);
        owned.add("event-client", eventClient);
        int qps = config.eventRecordQPS() == null ? DEFAULT_EVENT_RECORD_QPS : config.eventRecordQPS();
        ApiserverEventRecorder recorder = ApiserverEventRecorder.start(new Fabric8EventSink(eventClient), nodeName, logged,
                clock, ApiserverEventRecorder.limiter(qps, config.eventBurst(), clock));
        owned.add("event-recorder", recorder);
        return recorder;
    }

    /**
     * The pods bound to this node ({@code spec.nodeName}), as a pod source; none standalone.
     *
     * @param sink asked for only when there is a source: asking registers it with the pod config
     */
    public Optional<ApiserverSource> podSource(String nodeName, Supplier<PodUpdateSink> sink) {
        return client == null ? Optional.empty()
                : Optional.of(new ApiserverSource(new Fabric8PodListWatch(client), nodeName, sink.get()));
    }

    /**
     * Where the CSI plugin records what each driver says of this node (the Node's annotation and labels, the CSINode);
     * standalone, one that fails as upstream's does without a kube client.
     */
    public NodeInfoManager csiNodeInfo(String nodeName) {
        return client == null ? NodeInfoManager.standalone(nodeName)
                : NodeInfoManager.connected(nodeName, new Fabric8NodeClient(client), new Fabric8CsiNodes(client),
                        Sleeper.REAL);
    }

    /**
     * This node's Node read through to etcd, whose {@code status.volumesAttached} the volume manager reads (a Node that
     * does not exist is {@code nodes "<name>" not found}); none standalone.
     */
    public Optional<NodeReader> nodeReader(String nodeName) {
        if (client == null) {
            return Optional.empty();
        }
        Fabric8NodeClient nodes = new Fabric8NodeClient(client);
        return Optional.of(() -> {
            Node node = nodes.getNode(nodeName);
            if (node == null) {
                throw new ApiException("nodes \"" + nodeName + "\" not found", 404, null, null);
            }
            return node;
        });
    }

    /** The CSIDriver, VolumeAttachment and Secret objects the CSI volume plugin reads; none standalone. */
    public Optional<CsiObjects> csiObjects() {
        return client == null ? Optional.empty() : Optional.of(new Fabric8CsiObjects(client));
    }

    /** The mirror pods of this node's static pods; none standalone. */
    public Optional<MirrorClient> mirrorClient(String nodeName) {
        return client == null ? Optional.empty()
                : Optional.of(new MirrorClient(new Fabric8MirrorPodClient(client), nodeName));
    }

    /** The writer of pod statuses to the apiserver; none standalone. */
    public Optional<ApiStatusSync> statusWriter(StatusManager statuses, ApiStatusSync.Pods pods) {
        return client == null ? Optional.empty()
                : Optional.of(new ApiStatusSync(new Fabric8PodStatusClient(client), statuses, pods));
    }

    /**
     * Registers the node and keeps its status and lease (none standalone). The caller stops it before the
     * kubelet, so that the node stops reporting before its pods' workers stop.
     *
     * @param plegHealth the PLEG's error, if any, for the node's Ready condition
     * @param pressure the eviction manager's answers, for the node's pressure conditions
     * @param shutdownStatus the node shutdown manager's error while the node shuts down, for the Ready condition
     * @param devicePlugins the device plugins' resources, for the node's capacity and allocatable
     * @param volumes the volume manager's volumes in use, for {@code status.volumesInUse}
     */
    public Optional<NodeSync> startNodeSync(KubeletConfiguration config, NodeIdentity identity, Path rootDir,
                                            RuntimeService runtime, ImageService images,
                                            Supplier<Optional<String>> plegHealth, NodePressure pressure,
                                            Supplier<Optional<String>> shutdownStatus,
                                            Supplier<io.jkubelet.core.cm.devicemanager.DeviceCapacity> devicePlugins,
                                            NodeVolumes volumes, EventRecorder recorder) {
        if (client == null) {
            return Optional.empty();
        }
        NodeSync sync = NodeSync.start(new Fabric8NodeClient(client), new Fabric8LeaseClient(client), config, identity,
                rootDir, runtime, images, plegHealth, pressure, shutdownStatus, devicePlugins, volumes, recorder, clock);
        Fabric8NodeLister lister = new Fabric8NodeLister(client, identity.nodeName());
        owned.add("node-lister", lister);
        nodeLister = lister;
        nodeSync = sync;
        return Optional.of(sync);
    }

    /**
     * The Node object as the apiserver has it (the node lister's, watched: labels others add are seen at once), or,
     * until the lister has it, as the node status loop last registered or posted it (the initial node it computed
     * before it registered); admission and the downward API read it as upstream's kubelet reads its node lister. Empty
     * on a standalone node and until {@link #startNodeSync} has started the loop.
     */
    public Optional<Node> registeredNode() {
        NodeSync sync = nodeSync;
        if (sync == null) {
            return Optional.empty();
        }
        Fabric8NodeLister lister = nodeLister;
        Optional<Node> listed = lister == null ? Optional.empty() : lister.node();
        return Optional.of(listed.orElseGet(sync.node()));
    }

    /** Stops what it started, the last started first, within {@code deadline}. */
    public void stop(Duration deadline) {
        owned.stopAll(deadline);
    }

    @Override
    public void close() {
        stop(CLOSE_DEADLINE);
    }
}
