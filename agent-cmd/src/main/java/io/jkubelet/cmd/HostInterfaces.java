package io.jkubelet.cmd;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The machine's default address (upstream's {@code ChooseHostInterface} and {@code ResolveBindAddress}, apimachinery's
 * {@code util/net}): the first global unicast address of the interface a default route goes through, IPv4 routes
 * before IPv6 ones (or the reverse); without {@code /proc/net/route}, the first global unicast address of any
 * interface that is up and neither loopback nor point-to-point.
 */
final class HostInterfaces {
    static final String IPV4_ROUTE_FILE = "/proc/net/route";
    static final String IPV6_ROUTE_FILE = "/proc/net/ipv6_route";

    /** Why no address could be chosen, in upstream's words. */
    static final class NoHostAddressException extends Exception {
        NoHostAddressException(String message) {
            super(message);
        }
    }

    /** A default route: where it leaves the machine. */
    record Route(String iface, boolean ipv6) {}

    private HostInterfaces() {
    }

    /** The default address of the preferred family, else of the other. */
    static InetAddress choose(HostNetwork network, boolean preferIpv6) throws NoHostAddressException, IOException {
        List<Boolean> families = preferIpv6 ? List.of(true, false) : List.of(false, true);
        Optional<String> v4 = network.ipv4Routes();
        if (v4.isEmpty()) {
            return fromInterfaces(network.interfaces(), families);
        }
        List<Route> routes = new ArrayList<>(defaultRoutes(v4.get(), false));
        network.ipv6Routes().ifPresent(text -> {
            try {
                routes.addAll(defaultRoutes(text, true));
            } catch (NoHostAddressException e) {
                // Upstream reads the IPv6 table only if it can: a table it cannot parse is as none.
            }
        });
        if (routes.isEmpty()) {
            throw new NoHostAddressException("no default routes found in \"" + IPV4_ROUTE_FILE + "\" or \""
                    + IPV6_ROUTE_FILE + "\"");
        }
        List<HostNetwork.Interface> interfaces = network.interfaces();
        for (boolean ipv6 : families) {
            for (Route route : routes) {
                if (route.ipv6() != ipv6) {
                    continue;
                }
                HostNetwork.Interface iface = interfaces.stream().filter(i -> i.name().equals(route.iface())).findFirst()
                        .orElseThrow(() -> new NoHostAddressException("route ip+net: no such network interface "
                                + route.iface()));
                if (!iface.up()) {
                    continue;
                }
                Optional<InetAddress> ip = iface.addresses().stream()
                        .filter(a -> (a instanceof Inet6Address) == ipv6 && isGlobalUnicast(a)).findFirst();
                if (ip.isPresent()) {
                    return ip.get();
                }
            }
        }
        throw new NoHostAddressException("unable to select an IP from default routes.");
    }

    /** Upstream's {@code chooseIPFromHostInterfaces}, for a machine without {@code /proc/net/route}. */
    private static InetAddress fromInterfaces(List<HostNetwork.Interface> interfaces, List<Boolean> families)
            throws NoHostAddressException {
        if (interfaces.isEmpty()) {
            throw new NoHostAddressException("no interfaces found on host.");
        }
        for (boolean ipv6 : families) {
            for (HostNetwork.Interface iface : interfaces) {
                if (!iface.up() || iface.loopbackOrPointToPoint()) {
                    continue;
                }
                for (InetAddress a : iface.addresses()) {
                    if ((a instanceof Inet6Address) == ipv6 && isGlobalUnicast(a)) {
                        return a;
                    }
                }
            }
        }
        throw new NoHostAddressException("no acceptable interface with global unicast address found on host");
    }

    /**
     * The default routes of a routing table: IPv4's ({@code /proc/net/route}: interface, destination, gateway in
     * little-endian hex) with destination 0.0.0.0; IPv6's ({@code /proc/net/ipv6_route}: destination first, gateway
     * fifth, interface tenth) with destination :: and a gateway (without one it is the loopback's).
     *
     * @throws NoHostAddressException naming the table when a line is not a route
     */
    static List<Route> defaultRoutes(String table, boolean ipv6) throws NoHostAddressException {
        List<Route> routes = new ArrayList<>();
        for (String line : table.split("\n")) {
            if (line.isBlank() || (!ipv6 && line.startsWith("Iface"))) {
                continue;
            }
            String[] fields = line.trim().split("\\s+");
            int iface = ipv6 ? 9 : 0;
            int gateway = ipv6 ? 4 : 2;
            int destination = ipv6 ? 0 : 1;
            if (fields.length <= Math.max(iface, gateway)) {
                throw notARoute(line, ipv6);
            }
            byte[] dest = routeAddress(fields[destination], ipv6, line);
            byte[] gw = routeAddress(fields[gateway], ipv6, line);
            if (!isZero(dest) || (ipv6 && isZero(gw))) {
                continue;
            }
            routes.add(new Route(fields[iface], ipv6));
        }
        return routes;
    }

    private static byte[] routeAddress(String hex, boolean ipv6, String line) throws NoHostAddressException {
        byte[] bytes;
        try {
            bytes = HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw notARoute(line, ipv6);
        }
        if (bytes.length != (ipv6 ? 16 : 4)) {
            throw notARoute(line, ipv6);
        }
        return bytes;
    }

    private static NoHostAddressException notARoute(String line, boolean ipv6) {
        return new NoHostAddressException("invalid route in " + (ipv6 ? IPV6_ROUTE_FILE : IPV4_ROUTE_FILE) + ": "
                + FlagValues.quote(line.strip()));
    }

    private static boolean isZero(byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** Go's {@code IP.IsGlobalUnicast}: private addresses count, loopback, link-local, multicast and broadcast do not. */
    static boolean isGlobalUnicast(InetAddress a) {
        if (a.isAnyLocalAddress() || a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isMulticastAddress()) {
            return false;
        }
        return !(a instanceof Inet4Address) || !a.getHostAddress().equals("255.255.255.255");
    }

    /** An IP literal as an address (no lookup). */
    static InetAddress literal(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(ip + " is not an IP literal", e);
        }
    }
}
