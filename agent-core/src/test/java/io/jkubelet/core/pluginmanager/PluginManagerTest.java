package io.jkubelet.core.pluginmanager;

import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** The plugin watcher's reconcile against sockets in a directory and a registration client in memory. */
class PluginManagerTest {
    @TempDir
    Path dir;
    final FakeClock clock = new FakeClock();
    final Map<Path, PluginRegistrationClient.PluginInfo> infos = new ConcurrentHashMap<>();
    final List<String> notified = new CopyOnWriteArrayList<>();
    final List<String> handled = new CopyOnWriteArrayList<>();
    final List<ServerSocketChannel> sockets = new ArrayList<>();
    PluginManager manager;
    volatile String registerError;

    @BeforeEach
    void setUp() throws Exception {
        PluginRegistrationClient client = new PluginRegistrationClient() {
            @Override
            public PluginInfo getInfo(Path socket) throws Exception {
                PluginInfo i = infos.get(socket);
                if (i == null) {
                    throw new Exception("rpc error: code = Unavailable desc = connection refused");
                }
                return i;
            }

            @Override
            public void notifyRegistrationStatus(Path socket, boolean registered, String error) {
                notified.add(socket.getFileName() + " " + registered + " " + error);
            }
        };
        manager = new PluginManager(dir.resolve("plugins_registry"), client, clock, Runnable::run);
        manager.createDirectory();
        manager.addHandler(PluginManager.DEVICE_PLUGIN, new PluginWatcherHandler() {
            @Override
            public void validatePlugin(String name, String endpoint, List<String> versions) {
                if (!versions.contains("v1beta1")) {
                    throw new IllegalArgumentException("manager version, v1beta1, is not among plugin supported versions " + versions);
                }
            }

            @Override
            public void registerPlugin(String name, String endpoint, List<String> versions) throws Exception {
                if (registerError != null) {
                    throw new Exception(registerError);
                }
                handled.add("register " + name + " " + Path.of(endpoint).getFileName());
            }

            @Override
            public void deRegisterPlugin(String name, String endpoint) {
                handled.add("deregister " + name + " " + Path.of(endpoint).getFileName());
            }
        });
    }

    @AfterEach
    void closeSockets() throws Exception {
        for (var s : sockets) {
            s.close();
        }
    }

    private Path socket(String name, String type, String resource, String... versions) throws Exception {
        Path p = dir.resolve("plugins_registry").resolve(name);
        Files.createDirectories(p.getParent());
        ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        ch.bind(UnixDomainSocketAddress.of(p));
        sockets.add(ch);
        infos.put(p, new PluginRegistrationClient.PluginInfo(type, resource, "", List.of(versions)));
        return p;
    }

    @Test
    void aNewSocketIsRegisteredOnceAndToldAndOneThatGoesIsDeregistered() throws Exception {
        Path p = socket("dp.1", "DevicePlugin", "example.com/resource", "v1beta1");
        Files.writeString(dir.resolve("plugins_registry/not-a-socket"), "x");
        manager.reconcile();
        manager.reconcile();
        assertThat(handled).containsExactly("register example.com/resource dp.1");
        assertThat(notified).containsExactly("dp.1 true ");

        Files.delete(p);
        manager.reconcile();
        assertThat(handled).containsExactly("register example.com/resource dp.1", "deregister example.com/resource dp.1");
        assertThat(manager.registered()).isEmpty();
    }

    @Test
    void aSocketMadeAnewAtTheSamePathIsAnotherPlugin() throws Exception {
        Path p = socket("dp.1", "DevicePlugin", "example.com/resource", "v1beta1");
        manager.reconcile();
        sockets.removeFirst().close();
        Files.delete(p);
        socket("dp.1", "DevicePlugin", "example.com/resource", "v1beta1");
        manager.reconcile();
        assertThat(handled).containsExactly("register example.com/resource dp.1", "deregister example.com/resource dp.1",
                "register example.com/resource dp.1");
    }

    @Test
    void hiddenSocketsAreNotLookedAtAndSubdirectoriesAre() throws Exception {
        socket(".hidden.sock", "DevicePlugin", "a.com/x", "v1beta1");
        socket("csi/driver-reg.sock", "DevicePlugin", "b.com/y", "v1beta1");
        manager.reconcile();
        assertThat(handled).containsExactly("register b.com/y driver-reg.sock");
    }

    @Test
    void aPluginOfAnUnknownTypeOrRefusedByItsHandlerIsToldWhyInUpstreamsWords() throws Exception {
        socket("csi.sock", "CSIPlugin", "csi.example.com", "1.0.0");
        socket("old.sock", "DevicePlugin", "example.com/old", "v1alpha");
        manager.reconcile();
        assertThat(notified).containsExactlyInAnyOrder(
                "csi.sock false RegisterPlugin error -- no handler registered for plugin type: CSIPlugin at socket "
                        + dir.resolve("plugins_registry/csi.sock"),
                "old.sock false RegisterPlugin error -- plugin validation failed with err: manager version, v1beta1, is "
                        + "not among plugin supported versions [v1alpha]");
        assertThat(handled).isEmpty();
    }

    @Test
    void aFailedRegistrationIsTriedAgainAfterAnExponentialBackOff() throws Exception {
        registerError = "failed to dial device plugin: context deadline exceeded";
        socket("dp.1", "DevicePlugin", "example.com/resource", "v1beta1");
        manager.reconcile();
        assertThat(notified).containsExactly("dp.1 false RegisterPlugin error -- plugin registration failed with err: "
                + "failed to dial device plugin: context deadline exceeded");
        manager.reconcile();
        assertThat(notified).hasSize(1);

        clock.advance(Duration.ofMillis(500));
        manager.reconcile();
        assertThat(notified).hasSize(2);
        clock.advance(Duration.ofMillis(500));
        manager.reconcile();
        assertThat(notified).hasSize(2); // now a second
        registerError = null;
        clock.advance(Duration.ofMillis(500));
        manager.reconcile();
        assertThat(handled).containsExactly("register example.com/resource dp.1");
    }
}
