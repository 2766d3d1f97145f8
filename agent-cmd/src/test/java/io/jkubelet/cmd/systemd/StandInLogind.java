package io.jkubelet.cmd.systemd;

import org.freedesktop.dbus.FileDescriptor;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.Properties;
import org.freedesktop.dbus.transport.junixsocket.JUnixSocketSocketProvider;
import org.freedesktop.dbus.types.UInt64;
import org.freedesktop.dbus.types.Variant;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for systemd-logind (and the one call of systemd's the kubelet makes), for tests: logind cannot run on this
 * machine (PID 1 is not systemd), so this is the one mock the shutdown tests allow. It owns
 * {@code org.freedesktop.login1} and {@code org.freedesktop.systemd1} on a {@link PrivateSystemBus} and answers as
 * logind does: {@code InhibitDelayMaxUSec} from its configuration, re-read from the drop-in directory when systemd's
 * {@code KillUnit} sends {@code systemd-logind.service} SIGHUP; {@code Inhibit} hands out the write end of a FIFO of its
 * own ({@code <dir>/inhibit/<n>.ref}, as logind's {@code /run/systemd/inhibit}), a real descriptor passed over the bus,
 * and keeps the read end; {@link #prepareForShutdown} emits the signal.
 */
public final class StandInLogind implements AutoCloseable {
    private static final Pattern INHIBIT_DELAY_MAX_SEC = Pattern.compile("(?m)^InhibitDelayMaxSec=(\\d+)$");

    private final DBusConnection bus;
    private final Path inhibitDir;
    private final Path dropInDir;
    private volatile long inhibitDelayMaxUSec;
    /** Each Inhibit call's arguments, "what who why mode", and the FIFO it got. */
    public final List<String> inhibitCalls = new CopyOnWriteArrayList<>();
    public final List<Path> fifos = new CopyOnWriteArrayList<>();
    public final List<String> killUnitCalls = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> held = new ArrayList<>();

    private StandInLogind(DBusConnection bus, Path dir, Path dropInDir, long inhibitDelayMaxUSec) {
        this.bus = bus;
        this.inhibitDir = dir.resolve("inhibit");
        this.dropInDir = dropInDir;
        this.inhibitDelayMaxUSec = inhibitDelayMaxUSec;
    }

    /**
     * Exports logind's Manager and systemd's on the bus.
     *
     * @param dropInDir where its logind.conf.d is (the kubelet writes its drop-in there)
     * @param inhibitDelayMax logind's InhibitDelayMaxSec before any drop-in
     */
    public static StandInLogind start(String busAddress, Path dir, Path dropInDir, long inhibitDelayMaxSec)
            throws DBusException, IOException {
        DBusConnection bus = DBusConnectionBuilder.forAddress(busAddress).withShared(false).build();
        StandInLogind logind = new StandInLogind(bus, dir, dropInDir, inhibitDelayMaxSec * 1_000_000);
        Files.createDirectories(logind.inhibitDir);
        bus.exportObject(Login1Manager.OBJECT, logind.new Manager());
        bus.exportObject(Systemd1Manager.OBJECT, logind.new Systemd());
        bus.requestBusName(Login1Manager.SERVICE);
        bus.requestBusName(Systemd1Manager.SERVICE);
        return logind;
    }

    /** Emits {@code PrepareForShutdown(start)} from {@code /org/freedesktop/login1}. */
    public void prepareForShutdown(boolean start) throws DBusException {
        bus.sendMessage(new Login1Manager.PrepareForShutdown(Login1Manager.OBJECT, start));
    }

    public long inhibitDelayMaxUSec() {
        return inhibitDelayMaxUSec;
    }

    /** logind's Manager: Inhibit and the InhibitDelayMaxUSec property. */
    public final class Manager implements Login1Manager, Properties {
        @Override
        public FileDescriptor inhibit(String what, String who, String why, String mode) {
            try {
                Path fifo = inhibitDir.resolve((fifos.size() + 1) + ".ref");
                Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
                if (mkfifo.waitFor() != 0) {
                    throw new IOException("mkfifo " + fifo + " failed");
                }
                // The read end first (O_RDWR never blocks on a FIFO), so that opening the write end does not block.
                RandomAccessFile readEnd = new RandomAccessFile(fifo.toFile(), "rw");
                FileOutputStream writeEnd = new FileOutputStream(fifo.toFile());
                synchronized (held) {
                    held.add(readEnd);
                    held.add(writeEnd);
                }
                inhibitCalls.add(String.join(" ", what, who, why, mode));
                fifos.add(fifo);
                return FileDescriptor.fromJavaFileDescriptor(writeEnd.getFD(), new JUnixSocketSocketProvider());
            } catch (IOException | DBusException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public <A> A Get(String interfaceName, String propertyName) {
            if (Login1Manager.INTERFACE.equals(interfaceName) && "InhibitDelayMaxUSec".equals(propertyName)) {
                return (A) new UInt64(inhibitDelayMaxUSec);
            }
            throw new IllegalArgumentException("no property " + interfaceName + "." + propertyName);
        }

        @Override
        public <A> void Set(String interfaceName, String propertyName, A value) {
            throw new UnsupportedOperationException("read-only");
        }

        @Override
        public Map<String, Variant<?>> GetAll(String interfaceName) {
            return Map.of("InhibitDelayMaxUSec", new Variant<>(new UInt64(inhibitDelayMaxUSec)));
        }

        @Override
        public String getObjectPath() {
            return Login1Manager.OBJECT;
        }
    }

    /** systemd's Manager: SIGHUP to systemd-logind.service makes it read its drop-ins again, as logind does. */
    public final class Systemd implements Systemd1Manager {
        @Override
        public void killUnit(String name, String who, int signal) {
            killUnitCalls.add(name + " " + who + " " + signal);
            if ("systemd-logind.service".equals(name) && signal == 1) {
                Path dropIn = dropInDir.resolve("99-kubelet.conf");
                try {
                    if (Files.exists(dropIn)) {
                        Matcher m = INHIBIT_DELAY_MAX_SEC.matcher(Files.readString(dropIn));
                        if (m.find()) {
                            inhibitDelayMaxUSec = Long.parseLong(m.group(1)) * 1_000_000;
                        }
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        }

        @Override
        public String getObjectPath() {
            return Systemd1Manager.OBJECT;
        }
    }

    @Override
    public void close() throws Exception {
        bus.disconnect();
        synchronized (held) {
            for (AutoCloseable c : held) {
                c.close();
            }
        }
    }
}
