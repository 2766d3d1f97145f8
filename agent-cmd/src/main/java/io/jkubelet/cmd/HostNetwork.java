package io.jkubelet.cmd;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What the node's address is chosen from, as upstream's {@code net} calls see it: the resolver, the kernel's routing
 * tables and the interfaces. Tests hand over their own.
 */
interface HostNetwork {

    /**
     * One interface of this machine.
     *
     * @param loopbackOrPointToPoint upstream's {@code isLoopbackOrPointToPoint}: never the node's default address
     */
    record Interface(String name, boolean up, boolean loopbackOrPointToPoint, List<InetAddress> addresses) {}

    /** {@code net.LookupIP(name)}: the name's addresses, empty when it does not resolve. */
    List<InetAddress> lookup(String name);

    /** The text of {@code /proc/net/route}; empty when the file does not exist. */
    Optional<String> ipv4Routes() throws IOException;

    /** The text of {@code /proc/net/ipv6_route}; empty when it cannot be read (IPv6 routes are optional). */
    Optional<String> ipv6Routes();

    /** Every interface, in the kernel's order. */
    List<Interface> interfaces() throws IOException;

    /** This machine's. */
    static HostNetwork system() {
        return new HostNetwork() {
            @Override
            public List<InetAddress> lookup(String name) {
                try {
                    return List.of(InetAddress.getAllByName(name));
                } catch (UnknownHostException e) {
                    return List.of();
                }
            }

            @Override
            public Optional<String> ipv4Routes() throws IOException {
                try {
                    return Optional.of(Files.readString(Path.of("/proc/net/route")));
                } catch (NoSuchFileException e) {
                    return Optional.empty();
                }
            }

            @Override
            public Optional<String> ipv6Routes() {
                try {
                    return Optional.of(Files.readString(Path.of("/proc/net/ipv6_route")));
                } catch (IOException e) {
                    return Optional.empty();
                }
            }

            @Override
            public List<Interface> interfaces() throws IOException {
                List<Interface> all = new ArrayList<>();
                for (NetworkInterface ni : NetworkInterface.networkInterfaces()
                        .sorted(Comparator.comparingInt(NetworkInterface::getIndex)).toList()) {
                    all.add(new Interface(ni.getName(), ni.isUp(), ni.isLoopback() || ni.isPointToPoint(),
                            ni.inetAddresses().toList()));
                }
                return all;
            }
        };
    }
}
