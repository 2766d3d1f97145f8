package io.jkubelet.deviceplugin;

import io.jkubelet.core.cm.devicemanager.DeviceManager;
import io.jkubelet.core.metrics.KubeletMetrics;
import io.jkubelet.core.pluginmanager.PluginManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A device plugin found in the plugin registry directory, as upstream's sample plugin registers once the kubelet wrote
 * the {@code DEPRECATION} file: the watcher's calls over real sockets, each reconcile run by the test.
 */
class PluginWatcherTest {
    static final String RESOURCE = "example.com/resource";

    @TempDir
    Path dir;
    RegistrationServer server;
    DeviceManager manager;
    PluginManager watcher;
    final KubeletMetrics metrics = new KubeletMetrics("node-a");

    @BeforeEach
    void start() throws Exception {
        server = new RegistrationServer(dir.resolve("device-plugins/kubelet.sock"));
        manager = new DeviceManager(server, Clock.systemUTC());
        manager.observePlugins(metrics.resourceManagers().devicePlugins());
        manager.start(List::of, () -> true, (uid, name) -> false);
        watcher = new PluginManager(dir.resolve("plugins_registry"), new GrpcPluginRegistrationClient(), Clock.systemUTC(),
                Runnable::run);
        watcher.createDirectory();
        watcher.addHandler(PluginManager.DEVICE_PLUGIN, manager.watcherHandler());
    }

    @AfterEach
    void stop() {
        manager.stop();
    }

    /**
     * The watcher's loop, run by the test: reconciles until {@code answered}, as the loop's one-second period would. A
     * GetInfo that misses upstream's one-second deadline on a loaded machine is tried again at the next reconcile.
     */
    private void reconcileUntil(java.util.concurrent.Callable<Boolean> answered) {
        await().until(() -> {
            watcher.reconcile();
            return answered.call();
        });
    }

    @Test
    void aPluginSocketInTheRegistryIsRegisteredToldSoAndDeregisteredWhenItGoes() throws Exception {
        assertThat(dir.resolve("device-plugins/DEPRECATION")).exists();
        try (TestDevicePlugin plugin = new TestDevicePlugin(dir.resolve("plugins_registry/dp.1"), RESOURCE, "Dev-1", "Dev-2")) {
            reconcileUntil(() -> !plugin.registrationStatus.isEmpty());
            assertThat(plugin.registrationStatus).containsExactly("true:");
            await().until(() -> manager.getCapacity().allocatable().getOrDefault(RESOURCE, 0L) == 2L);
            assertThat(watcher.registered()).containsEntry(RESOURCE, plugin.socket);
            // Upstream counts registrations on the kubelet's socket only.
            assertThat(RegistrationServerTest.registrations(metrics, RESOURCE)).isZero();

            // Nothing new: nothing is registered twice.
            watcher.reconcile();
            assertThat(plugin.registrationStatus).hasSize(1);

            Files.delete(plugin.socket);
            watcher.reconcile();
            assertThat(watcher.registered()).isEmpty();
            assertThat(manager.getCapacity().allocatable()).containsEntry(RESOURCE, 0L);
            // Deregistration leaves the plugin's connection open, as upstream's: stopping the manager before the plugin
            // goes ends it on this thread. Else the plugin's going would end it on a gRPC thread, whose checkpoint write
            // could race the removal of the test's directory.
            manager.stop();
        }
    }

    @Test
    void aPluginOfAnUnsupportedVersionOrTypeIsToldWhy() throws Exception {
        try (TestDevicePlugin plugin = new TestDevicePlugin(dir.resolve("plugins_registry/dp.bad"), "cpu", "Dev-1")) {
            reconcileUntil(() -> !plugin.registrationStatus.isEmpty());
            assertThat(plugin.registrationStatus).containsExactly("false:RegisterPlugin error -- plugin validation "
                    + "failed with err: invalid name of device plugin socket: the ResourceName \"cpu\" is invalid");
            assertThat(watcher.registered()).isEmpty();
        }
    }
}
