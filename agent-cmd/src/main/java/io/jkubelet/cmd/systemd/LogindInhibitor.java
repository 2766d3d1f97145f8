package io.jkubelet.cmd.systemd;

import io.jkubelet.core.nodeshutdown.Inhibitor;
import org.freedesktop.dbus.FileDescriptor;
import org.freedesktop.dbus.connections.IDisconnectCallback;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.freedesktop.dbus.interfaces.Properties;
import org.freedesktop.dbus.types.UInt64;
import org.freedesktop.dbus.transport.junixsocket.JUnixSocketSocketProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * systemd-logind over the system bus (upstream {@code systemd.DBusCon}): the kubelet's delay lock, logind's maximum
 * delay and its drop-in, and the {@code PrepareForShutdown} signal. One connection of its own, closed with it.
 */
public final class LogindInhibitor implements Inhibitor {
    private static final Logger log = LoggerFactory.getLogger(LogindInhibitor.class);
    /** Where the system bus is when {@code DBUS_SYSTEM_BUS_ADDRESS} does not say (the D-Bus specification's default). */
    static final String DEFAULT_SYSTEM_BUS_ADDRESS = "unix:path=/run/dbus/system_bus_socket";
    /** Upstream's drop-in: logind reads {@code logind.conf.d} after {@code logind.conf}, and 99 comes last. */
    public static final Path LOGIND_CONFIG_DIRECTORY = Path.of("/etc/systemd/logind.conf.d");
    static final String KUBELET_LOGIND_CONF = "99-kubelet.conf";
    private static final int SIGHUP = 1;

    private final DBusConnection bus;
    private final Path logindConfigDirectory;

    private LogindInhibitor(DBusConnection bus, Path logindConfigDirectory) {
        this.bus = bus;
        this.logindConfigDirectory = logindConfigDirectory;
    }

    /** The system bus's address: {@code DBUS_SYSTEM_BUS_ADDRESS}, else the standard socket. */
    public static String systemBusAddress(Map<String, String> env) {
        String address = env.get("DBUS_SYSTEM_BUS_ADDRESS");
        return address == null || address.isBlank() ? DEFAULT_SYSTEM_BUS_ADDRESS : address;
    }

    /** A connector to the system bus at {@code address}, writing logind's drop-in under {@code logindConfigDirectory}. */
    public static Inhibitor.Connector connector(String address, Path logindConfigDirectory) {
        return () -> {
            try {
                return new LogindInhibitor(DBusConnectionBuilder.forAddress(address).withShared(false).build(),
                        logindConfigDirectory);
            } catch (DBusException | RuntimeException e) {
                throw new IOException("cannot connect to the system bus at " + address + ": " + e.getMessage(), e);
            }
        };
    }

    @Override
    public Duration currentInhibitDelay() throws IOException {
        Object value;
        try {
            Properties logind = bus.getRemoteObject(Login1Manager.SERVICE, Login1Manager.OBJECT, Properties.class);
            value = logind.Get(Login1Manager.INTERFACE, "InhibitDelayMaxUSec");
        } catch (DBusException | DBusExecutionException e) {
            throw new IOException("failed reading InhibitDelayMaxUSec property from logind: " + e.getMessage(), e);
        }
        if (!(value instanceof UInt64 usec)) {
            throw new IOException("InhibitDelayMaxUSec from logind is not a uint64 as expected");
        }
        return Duration.ofNanos(usec.longValue() * 1000);
    }

    @Override
    public InhibitLock inhibitShutdown() throws IOException {
        FileDescriptor fd;
        try {
            Login1Manager logind = bus.getRemoteObject(Login1Manager.SERVICE, Login1Manager.OBJECT, Login1Manager.class);
            fd = logind.inhibit("shutdown", "kubelet", "Kubelet needs time to handle node shutdown", "delay");
        } catch (DBusException | DBusExecutionException e) {
            throw new IOException("failed creating systemd inhibitor: " + e.getMessage(), e);
        }
        if (fd == null) {
            throw new IOException("failed storing inhibit lock file descriptor: logind returned none");
        }
        log.debug("Holding the shutdown inhibitor lock, file descriptor {}", fd.getIntFileDescriptor());
        return () -> close(fd);
    }

    /** Closes the lock's descriptor in this process: logind sees the lock gone once no process holds it. */
    private static void close(FileDescriptor fd) throws IOException {
        try {
            java.io.FileDescriptor javaFd = fd.toJavaFileDescriptor(new JUnixSocketSocketProvider());
            new FileInputStream(javaFd).close();
        } catch (DBusException e) {
            throw new IOException("unable to close systemd inhibitor lock: " + e.getMessage(), e);
        }
    }

    @Override
    public void overrideInhibitDelay(Duration inhibitDelayMax) throws IOException {
        Path dropIn = logindConfigDirectory.resolve(KUBELET_LOGIND_CONF);
        try {
            Files.createDirectories(logindConfigDirectory);
        } catch (IOException e) {
            throw new IOException("failed creating " + logindConfigDirectory + " directory: " + e.getMessage(), e);
        }
        // logind.conf's InhibitDelayMaxSec is in seconds; the property read back is InhibitDelayMaxUSec.
        String conf = "# Kubelet logind override\n[Login]\nInhibitDelayMaxSec=" + inhibitDelayMax.toSeconds() + "\n";
        try {
            Files.writeString(dropIn, conf);
        } catch (IOException e) {
            throw new IOException("failed writing logind shutdown inhibit override file " + dropIn + ": " + e.getMessage(), e);
        }
    }

    /** As upstream: systemd sends logind SIGHUP, on which it reads its configuration again. */
    @Override
    public void reloadLogindConf() throws IOException {
        try {
            Systemd1Manager systemd = bus.getRemoteObject(Systemd1Manager.SERVICE, Systemd1Manager.OBJECT, Systemd1Manager.class);
            systemd.killUnit("systemd-logind.service", "all", SIGHUP);
        } catch (DBusException | DBusExecutionException e) {
            throw new IOException("unable to reload logind conf: " + e.getMessage(), e);
        }
    }

    @Override
    public void monitorShutdown(Consumer<Boolean> events, Runnable ended) throws IOException {
        // Only a connection lost on an error counts; close() is a client disconnect.
        bus.setDisconnectCallback(new IDisconnectCallback() {
            @Override
            public void disconnectOnError(IOException e) {
                ended.run();
            }

            @Override
            public void exceptionOnTerminate(IOException e) {
                ended.run();
            }
        });
        try {
            bus.addSigHandler(Login1Manager.PrepareForShutdown.class, signal -> {
                if (Login1Manager.OBJECT.equals(signal.getPath())) {
                    events.accept(signal.start());
                }
            });
        } catch (DBusException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        bus.disconnect();
    }
}
