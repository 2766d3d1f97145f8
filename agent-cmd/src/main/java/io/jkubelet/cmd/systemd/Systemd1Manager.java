package io.jkubelet.cmd.systemd;

import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.annotations.DBusMemberName;
import org.freedesktop.dbus.interfaces.DBusInterface;

/** The part of systemd's {@code org.freedesktop.systemd1.Manager} the kubelet uses: a signal to a unit's processes. */
@DBusInterfaceName(Systemd1Manager.INTERFACE)
public interface Systemd1Manager extends DBusInterface {
    String SERVICE = "org.freedesktop.systemd1";
    String OBJECT = "/org/freedesktop/systemd1";
    String INTERFACE = "org.freedesktop.systemd1.Manager";

    /** Sends {@code signal} to the unit's processes ({@code who}: {@code all}, {@code main} or {@code control}). */
    @DBusMemberName("KillUnit")
    void killUnit(String name, String who, int signal);
}
