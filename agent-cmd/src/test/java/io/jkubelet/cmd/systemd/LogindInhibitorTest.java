package io.jkubelet.cmd.systemd;

import io.jkubelet.core.nodeshutdown.Inhibitor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The D-Bus adapter against a real {@code dbus-daemon} (a private system bus) where {@link StandInLogind} plays
 * systemd-logind, which cannot run here (PID 1 is not systemd): the one mock these tests allow. What the kubelet needs
 * of logind for shutdownGracePeriod: the delay it allows, raised by a drop-in, the lock, and the signal.
 */
class LogindInhibitorTest {
    @TempDir Path dir;
    PrivateSystemBus bus;
    StandInLogind logind;
    Inhibitor inhibitor;

    @BeforeEach
    void startBus() throws Exception {
        bus = PrivateSystemBus.start(dir.resolve("bus"));
    }

    @AfterEach
    void stop() throws Exception {
        if (inhibitor != null) {
            inhibitor.close();
        }
        if (logind != null) {
            logind.close();
        }
        bus.close();
    }

    private Inhibitor connect() throws IOException {
        inhibitor = LogindInhibitor.connector(bus.address(), dir.resolve("logind.conf.d")).connect();
        return inhibitor;
    }

    @Test
    void theSystemBusAddressComesFromTheEnvironmentElseTheStandardSocket() {
        assertThat(LogindInhibitor.systemBusAddress(Map.of("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/tmp/x")))
                .isEqualTo("unix:path=/tmp/x");
        assertThat(LogindInhibitor.systemBusAddress(Map.of())).isEqualTo("unix:path=/run/dbus/system_bus_socket");
    }

    @Test
    void aShortInhibitDelayIsRaisedByUpstreamsDropInAndLogindsReload() throws Exception {
        logind = StandInLogind.start(bus.address(), dir.resolve("logind"), dir.resolve("logind.conf.d"), 5);
        Inhibitor i = connect();
        assertThat(i.currentInhibitDelay()).isEqualTo(Duration.ofSeconds(5));

        i.overrideInhibitDelay(Duration.ofSeconds(40));
        assertThat(Files.readString(dir.resolve("logind.conf.d/99-kubelet.conf")))
                .isEqualTo("# Kubelet logind override\n[Login]\nInhibitDelayMaxSec=40\n");
        i.reloadLogindConf();

        assertThat(logind.killUnitCalls).containsExactly("systemd-logind.service all 1");
        assertThat(i.currentInhibitDelay()).isEqualTo(Duration.ofSeconds(40));
    }

    @Test
    void theDelayLockIsARealDescriptorThatReleaseCloses() throws Exception {
        logind = StandInLogind.start(bus.address(), dir.resolve("logind"), dir.resolve("logind.conf.d"), 30);
        Inhibitor.InhibitLock lock = connect().inhibitShutdown();
        assertThat(logind.inhibitCalls).containsExactly("shutdown kubelet Kubelet needs time to handle node shutdown delay");
        Path fifo = logind.fifos.getFirst();
        long self = ProcessHandle.current().pid();
        // The stand-in keeps both ends of its FIFO; the kubelet's side holds one more descriptor.
        assertThat(OpenFiles.count(self, fifo)).isEqualTo(3);

        lock.release();

        assertThat(OpenFiles.count(self, fifo)).isEqualTo(2);
    }

    @Test
    void prepareForShutdownSignalsArriveInOrder() throws Exception {
        logind = StandInLogind.start(bus.address(), dir.resolve("logind"), dir.resolve("logind.conf.d"), 30);
        List<Boolean> seen = new CopyOnWriteArrayList<>();
        connect().monitorShutdown(seen::add, () -> { });
        logind.prepareForShutdown(true);
        logind.prepareForShutdown(false);
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 2);
        assertThat(seen).containsExactly(true, false);
    }

    @Test
    void aBusThatGoesAwayEndsTheWatchOnceAndClosingItDoesNot() throws Exception {
        java.util.concurrent.atomic.AtomicInteger ended = new java.util.concurrent.atomic.AtomicInteger();
        connect().monitorShutdown(b -> { }, ended::incrementAndGet);
        Inhibitor other = LogindInhibitor.connector(bus.address(), dir).connect();
        java.util.concurrent.atomic.AtomicInteger otherEnded = new java.util.concurrent.atomic.AtomicInteger();
        other.monitorShutdown(b -> { }, otherEnded::incrementAndGet);
        other.close();

        bus.close();

        await().atMost(Duration.ofSeconds(10)).until(() -> ended.get() == 1);
        assertThat(otherEnded).hasValue(0);
    }

    @Test
    void aBusWithoutLogindFailsTheFirstReadWithUpstreamsMessage() throws Exception {
        Inhibitor i = connect();
        assertThatThrownBy(i::currentInhibitDelay).isInstanceOf(IOException.class)
                .hasMessageStartingWith("failed reading InhibitDelayMaxUSec property from logind: ");
    }

    @Test
    void noBusFailsTheConnectionNamingTheAddress() {
        String missing = "unix:path=" + dir.resolve("none/system_bus_socket");
        assertThatThrownBy(() -> LogindInhibitor.connector(missing, dir).connect()).isInstanceOf(IOException.class)
                .hasMessageStartingWith("cannot connect to the system bus at " + missing + ": ");
    }
}
