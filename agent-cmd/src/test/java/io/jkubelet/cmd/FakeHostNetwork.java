package io.jkubelet.cmd;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A machine's resolver, routing tables and interfaces as a test sets them; by default this test machine's. */
final class FakeHostNetwork implements HostNetwork {
    /** This machine's {@code /proc/net/route}: the default route on eth0, the CNI bridge and Docker's bridge. */
    static final String ROUTES = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            jk-cni0\t0000580A\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0
            eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0
            docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0
            eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
            """;
    /** This machine's {@code /proc/net/ipv6_route}: fd00::/64 and the default route via fd00::1 on eth0, loopback's. */
    static final String IPV6_ROUTES = """
            fd000000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0
            fe800000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001  jk-cni0
            00000000000000000000000000000000 00 00000000000000000000000000000000 00 fd000000000000000000000000000001 00000400 00000003 00000000 00000003     eth0
            00000000000000000000000000000001 80 00000000000000000000000000000000 00 00000000000000000000000000000000 00000000 00000004 00000000 80200001       lo
            00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
            """;

    final Map<String, List<InetAddress>> dns = new HashMap<>();
    String routes = ROUTES;
    String ipv6Routes = IPV6_ROUTES;
    final List<Interface> interfaces = new ArrayList<>(List.of(
            new Interface("lo", true, true, ips("127.0.0.1", "::1")),
            // Up, first in the list and not the default route's: the CNI bridge with a pod on it.
            new Interface("jk-cni0", true, false, ips("10.88.0.1", "fe80::1cbc:43ff:fe55:99b2")),
            new Interface("eth0", true, false, ips("fe80::fc:ff:fe00:1", "fd00::2", "192.0.2.2")),
            new Interface("docker0", true, false, ips("172.17.0.1"))));

    static List<InetAddress> ips(String... literals) {
        List<InetAddress> out = new ArrayList<>();
        for (String l : literals) {
            try {
                out.add(InetAddress.getByName(l));
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException(l, e);
            }
        }
        return out;
    }

    /** Replaces interface {@code name}. */
    FakeHostNetwork with(Interface replacement) {
        interfaces.replaceAll(i -> i.name().equals(replacement.name()) ? replacement : i);
        return this;
    }

    @Override
    public List<InetAddress> lookup(String name) {
        return dns.getOrDefault(name, List.of());
    }

    @Override
    public Optional<String> ipv4Routes() {
        return Optional.ofNullable(routes);
    }

    @Override
    public Optional<String> ipv6Routes() {
        return Optional.ofNullable(ipv6Routes);
    }

    @Override
    public List<Interface> interfaces() {
        return interfaces;
    }
}
