package io.jkubelet.cmd.systemd;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A D-Bus daemon of the test's own, configured as a system bus on a socket in a test directory (Debian's
 * {@code dbus-daemon}): the machine's own system bus is never touched.
 */
public final class PrivateSystemBus implements AutoCloseable {
    private final Process daemon;
    private final String address;

    private PrivateSystemBus(Process daemon, String address) {
        this.daemon = daemon;
        this.address = address;
    }

    /** Starts {@code dbus-daemon} with a configuration of its own listening on {@code dir/system_bus_socket}. */
    public static PrivateSystemBus start(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path socket = dir.resolve("system_bus_socket");
        Path config = Files.writeString(dir.resolve("system.conf"), """
                <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
                 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
                <busconfig>
                  <type>system</type>
                  <listen>unix:path=%s</listen>
                  <auth>EXTERNAL</auth>
                  <policy context="default">
                    <allow user="*"/>
                    <allow own="*"/>
                    <allow send_destination="*"/>
                    <allow receive_sender="*"/>
                  </policy>
                </busconfig>
                """.formatted(socket));
        Process p = new ProcessBuilder("dbus-daemon", "--config-file=" + config, "--nofork", "--print-address=1")
                .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("dbus-daemon.log").toFile())).start();
        String address = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
        if (address == null) {
            p.destroy();
            throw new IOException("dbus-daemon did not start: " + Files.readString(dir.resolve("dbus-daemon.log")));
        }
        return new PrivateSystemBus(p, address.trim());
    }

    /** What {@code DBUS_SYSTEM_BUS_ADDRESS} is set to for the kubelet. */
    public String address() {
        return address;
    }

    @Override
    public void close() throws InterruptedException {
        daemon.destroy();
        if (!daemon.waitFor(10, TimeUnit.SECONDS)) {
            daemon.destroyForcibly();
        }
    }
}
