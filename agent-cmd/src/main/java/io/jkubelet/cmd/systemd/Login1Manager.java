package io.jkubelet.cmd.systemd;

import org.freedesktop.dbus.FileDescriptor;
import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.annotations.DBusMemberName;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.messages.DBusSignal;

/** The part of systemd-logind's {@code org.freedesktop.login1.Manager} the kubelet uses (logind's D-Bus API). */
@DBusInterfaceName(Login1Manager.INTERFACE)
public interface Login1Manager extends DBusInterface {
    String SERVICE = "org.freedesktop.login1";
    String OBJECT = "/org/freedesktop/login1";
    String INTERFACE = "org.freedesktop.login1.Manager";

    /**
     * Takes an inhibitor lock; logind holds back {@code what} until the returned descriptor is closed (in mode
     * {@code delay}, at most {@code InhibitDelayMaxUSec}).
     */
    @DBusMemberName("Inhibit")
    FileDescriptor inhibit(String what, String who, String why, String mode);

    /** Sent with true before a shutdown begins, and with false when it was cancelled. */
    class PrepareForShutdown extends DBusSignal {
        private final boolean start;

        public PrepareForShutdown(String path, boolean start) throws DBusException {
            super(path, start);
            this.start = start;
        }

        public boolean start() {
            return start;
        }
    }
}
