package io.jkubelet.deviceplugin;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCalls;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.admission.testing.AdmittedPods;
import io.jkubelet.core.cm.devicemanager.DeviceManager;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.kuberuntime.RunContainerOptions;
import io.jkubelet.core.metrics.KubeletMetrics;
import io.jkubelet.core.runtime.KeyValue;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.deviceplugin.v1beta1.DevicePluginApi;
import io.jkubelet.deviceplugin.v1beta1.DevicePluginGrpc;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The registration server and its plugin clients over real unix sockets, with the core's device manager behind them
 * and device plugins served in this JVM: what a plugin sees, and what the manager makes of each plugin's answers.
 */
class RegistrationServerTest {
    static final String RESOURCE = "example.com/resource";

    @TempDir
    Path dir;
    Path kubeletSocket;
    RegistrationServer server;
    DeviceManager manager;
    TopologyManager admission;
    final AdmittedPods admittedPods = new AdmittedPods();
    final List<Pod> active = admittedPods.list();
    final List<AutoCloseable> plugins = new ArrayList<>();
    final KubeletMetrics metrics = new KubeletMetrics("node-a");

    @BeforeEach
    void start() throws IOException {
        kubeletSocket = dir.resolve("device-plugins/kubelet.sock");
        startKubelet(RegistrationServer.CALL_TIMEOUT);
    }

    private void startKubelet(Duration callTimeout) throws IOException {
        server = new RegistrationServer(kubeletSocket, callTimeout);
        manager = new DeviceManager(server, Clock.systemUTC());
        manager.observePlugins(metrics.resourceManagers().devicePlugins());
        manager.start(() -> List.copyOf(active), () -> true, (uid, name) -> false);
        admission = TopologyManager.none(manager);
    }

    @AfterEach
    void stop() throws Exception {
        manager.stop();
        for (AutoCloseable p : plugins) {
            p.close();
        }
    }

    private TestDevicePlugin plugin(String name, String resource, String... devices) throws IOException {
        TestDevicePlugin p = new TestDevicePlugin(kubeletSocket.resolveSibling(name), resource, devices);
        plugins.add(p);
        return p;
    }

    private static Pod pod(String name, int devices) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name).endMetadata()
                .withNewSpec().withContainers(new ContainerBuilder().withName("app").withImage("busybox")
                        .withNewResources().withLimits(Map.of(RESOURCE, new Quantity(Integer.toString(devices))))
                        .endResources().build()).endSpec().build();
    }

    private PodAdmitResult admit(Pod pod) {
        return admittedPods.admit(admission, pod);
    }

    /** {@code kubelet_device_plugin_registration_total} of one resource, as {@code /metrics} shows it; 0 when none. */
    static double registrations(KubeletMetrics metrics, String resource) {
        return metrics.registry().scrape(name -> name.equals("kubelet_device_plugin_registration_total")).stream()
                .flatMap(s -> ((CounterSnapshot) s).getDataPoints().stream())
                .filter(p -> resource.equals(p.getLabels().get("resource_name")))
                .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue).sum();
    }

    private Map<String, Long> allocatable() {
        return manager.getCapacity().allocatable();
    }

    @Test
    void aRegisteredPluginsDevicesAreAllocatedAndWhatItAnswersReachesTheContainer() throws Exception {
        TestDevicePlugin p = plugin("dp.1", RESOURCE, "Dev-1", "Dev-2");
        p.register(kubeletSocket);
        await().until(() -> allocatable().getOrDefault(RESOURCE, 0L) == 2L);
        assertThat(registrations(metrics, RESOURCE)).isEqualTo(1);

        Pod pod = pod("a", 1);
        assertThat(admit(pod).admit()).isTrue();
        assertThat(p.allocated).containsExactly(List.of("Dev-1"));
        RunContainerOptions opts = manager.deviceRunContainerOptions(pod, pod.getSpec().getContainers().getFirst());
        assertThat(opts.envs()).containsExactly(new KeyValue("TEST_DEVICES", "Dev-1"));
        assertThat(opts.mounts()).containsExactly(new Mount("/tmp/Dev-1", "/tmp/Dev-1", false));
        assertThat(opts.devices()).containsExactly(new io.jkubelet.core.runtime.Device("/dev/test0", "/dev/null", "rw"));
        assertThat(opts.annotations()).containsEntry("test.example.com/devices", "Dev-1");
        assertThat(opts.cdiDevices()).containsExactly("example.com/test=Dev-1");

        p.update(List.of(TestDevicePlugin.device("Dev-1", "Healthy"), TestDevicePlugin.device("Dev-2", "Unhealthy")));
        await().until(() -> allocatable().get(RESOURCE) == 1L);
        assertThat(manager.getCapacity().capacity()).containsEntry(RESOURCE, 2L);
    }

    @Test
    void aRegistrationOfAnUnsupportedVersionOrABadNameIsRefusedWithUpstreamsMessages() throws Exception {
        TestDevicePlugin p = plugin("dp.1", RESOURCE, "Dev-1");
        assertThatThrownBy(() -> p.register(kubeletSocket, "v1alpha"))
                .isInstanceOf(StatusRuntimeException.class).hasMessage("UNKNOWN: requested API version \"v1alpha\" is not "
                        + "supported by kubelet. Supported version is [\"v1beta1\"]");
        TestDevicePlugin bad = plugin("dp.2", "resource", "Dev-1");
        assertThatThrownBy(() -> bad.register(kubeletSocket)).isInstanceOf(StatusRuntimeException.class)
                .hasMessage("UNKNOWN: the ResourceName \"resource\" is invalid");
        assertThat(manager.getCapacity().capacity()).isEmpty();
        // Upstream counts every request before it is checked.
        assertThat(registrations(metrics, RESOURCE)).isEqualTo(1);
        assertThat(registrations(metrics, "resource")).isEqualTo(1);
    }

    @Test
    void aPluginThatAnswersAllocateWithAnErrorRefusesThePodWithItsErrorAsGrpcGoPrintsIt() throws Exception {
        TestDevicePlugin p = plugin("dp.1", RESOURCE, "Dev-1", "Dev-2");
        p.register(kubeletSocket);
        await().until(() -> allocatable().getOrDefault(RESOURCE, 0L) == 2L);
        assertThat(admit(pod("a", 1)).admit()).isTrue();
        p.allocateError = "invalid allocation request with unhealthy device: Dev-2";

        PodAdmitResult r = admit(pod("b", 1));
        assertThat(r.reason()).isEqualTo("UnexpectedAdmissionError");
        assertThat(r.message()).isEqualTo("Allocate failed due to rpc error: code = Unknown desc = invalid allocation "
                + "request with unhealthy device: Dev-2, which is unexpected");
        assertThat(manager.devices("uid-a", "app").get(RESOURCE)).containsOnlyKeys("Dev-1");
    }

    @Test
    void aPluginThatDoesNotAnswerAllocateRefusesThePodOnceTheCallTimesOut() throws Exception {
        // A kubelet that waits a second for a plugin's answers, rather than 30.
        manager.stop();
        startKubelet(Duration.ofSeconds(1));
        TestDevicePlugin p = plugin("dp.1", RESOURCE, "Dev-1");
        p.register(kubeletSocket);
        await().until(() -> allocatable().getOrDefault(RESOURCE, 0L) == 1L);
        p.hangAllocate = new CountDownLatch(1);
        try {
            PodAdmitResult r = admit(pod("a", 1));
            assertThat(r.reason()).isEqualTo("UnexpectedAdmissionError");
            assertThat(r.message()).isEqualTo("Allocate failed due to rpc error: code = DeadlineExceeded desc = context "
                    + "deadline exceeded, which is unexpected");
        } finally {
            p.hangAllocate.countDown();
        }
        p.hangAllocate = null;
        assertThat(admit(pod("b", 1)).admit()).isTrue();
    }

    @Test
    void aMalformedDeviceListEndsThePluginsStreamAndOnlyItsResourceBecomesUnhealthy() throws Exception {
        TestDevicePlugin good = plugin("dp.good", "other.com/thing", "T-1");
        good.register(kubeletSocket);
        Server garbage = malformedPlugin(kubeletSocket.resolveSibling("dp.bad"));
        plugins.add(garbage::shutdownNow);
        new TestDevicePlugin.Registrar(kubeletSocket).register("dp.bad", RESOURCE);

        await().until(() -> manager.getCapacity().capacity().containsKey(RESOURCE));
        assertThat(allocatable()).containsEntry(RESOURCE, 0L).containsEntry("other.com/thing", 1L);
    }

    @Test
    void aPluginThatGoesLeavesNoAllocatableDeviceAndOneThatRegistersAgainIsBack() throws Exception {
        TestDevicePlugin p = plugin("dp.1", RESOURCE, "Dev-1", "Dev-2");
        p.register(kubeletSocket);
        await().until(() -> allocatable().getOrDefault(RESOURCE, 0L) == 2L);
        p.close();
        await().until(() -> allocatable().get(RESOURCE) == 0L);
        assertThat(manager.getCapacity().capacity()).containsEntry(RESOURCE, 2L);

        TestDevicePlugin again = plugin("dp.2", RESOURCE, "Dev-1", "Dev-2");
        again.register(kubeletSocket);
        await().until(() -> allocatable().get(RESOURCE) == 2L);
    }

    @Test
    void aRestartedKubeletRemovesTheOldSocketsMakesItsOwnAgainAndKeepsTheAssignments() throws Exception {
        TestDevicePlugin p = plugin("dp.1", RESOURCE, "Dev-1", "Dev-2");
        p.register(kubeletSocket);
        await().until(() -> allocatable().getOrDefault(RESOURCE, 0L) == 2L);
        assertThat(admit(pod("a", 1)).admit()).isTrue();

        manager.stop();
        assertThat(kubeletSocket).doesNotExist();
        startKubelet(RegistrationServer.CALL_TIMEOUT);
        assertThat(kubeletSocket).exists();
        assertThat(p.socket).doesNotExist();
        assertThat(manager.getCapacity().capacity()).containsEntry(RESOURCE, 0L);
        assertThat(manager.devices("uid-a", "app").get(RESOURCE)).containsOnlyKeys("Dev-1");
        assertThat(Files.exists(kubeletSocket.resolveSibling("kubelet_internal_checkpoint"))).isTrue();
    }

    @Test
    void theWatcherHandlerWritesTheDeprecationFileAndValidatesAsUpstream() {
        var h = server.watcherHandler();
        assertThat(kubeletSocket.resolveSibling("DEPRECATION")).exists();
        assertThatThrownBy(() -> h.validatePlugin(RESOURCE, "/x", List.of("v1", "v2")))
                .hasMessage("manager version, v1beta1, is not among plugin supported versions [v1 v2]");
        assertThatThrownBy(() -> h.validatePlugin("cpu", "/x", List.of("v1beta1")))
                .hasMessage("invalid name of device plugin socket: the ResourceName \"cpu\" is invalid");
        h.validatePlugin(RESOURCE, "/x", List.of("v1beta1"));
    }

    /** A plugin whose ListAndWatch sends bytes that are not a ListAndWatchResponse. */
    private static Server malformedPlugin(Path socket) throws IOException {
        MethodDescriptor.Marshaller<byte[]> raw = new MethodDescriptor.Marshaller<>() {
            @Override
            public InputStream stream(byte[] value) {
                return new ByteArrayInputStream(value);
            }

            @Override
            public byte[] parse(InputStream stream) {
                try {
                    return stream.readAllBytes();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        var listAndWatch = DevicePluginGrpc.getListAndWatchMethod().toBuilder(raw, raw).build();
        var options = DevicePluginGrpc.getGetDevicePluginOptionsMethod();
        ServerServiceDefinition service = ServerServiceDefinition.builder(DevicePluginGrpc.SERVICE_NAME)
                .addMethod(options, ServerCalls.asyncUnaryCall((DevicePluginApi.Empty req, io.grpc.stub.StreamObserver<
                        DevicePluginApi.DevicePluginOptions> answer) -> {
                    answer.onNext(DevicePluginApi.DevicePluginOptions.getDefaultInstance());
                    answer.onCompleted();
                }))
                .addMethod(listAndWatch, ServerCalls.asyncServerStreamingCall((byte[] req,
                        io.grpc.stub.StreamObserver<byte[]> answer) -> answer.onNext(new byte[] {0x0a, 0x05, 0x01})))
                .build();
        return UnixSockets.serve(socket, () -> service);
    }
}
