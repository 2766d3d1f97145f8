package io.jkubelet.cmd;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --node-ip} as upstream reads it ({@code ParseNodeIPArgument} and the node address setter): one IP or a
 * dual-stack pair; unset, {@code 0.0.0.0} or {@code ::}, the address upstream's setter chooses ({@link #resolve}).
 */
final class NodeIps {
    private static final Logger log = LoggerFactory.getLogger(NodeIps.class);
    private static final String UNSPECIFIED_V4 = "0.0.0.0";
    private static final String UNSPECIFIED_V6 = "::";

    private NodeIps() {
    }

    /**
     * The IPs of a {@code --node-ip} value, checked.
     *
     * @throws FlagsException naming the flag and what is wrong, upstream's words where it has them
     */
    static List<String> parse(String value) throws FlagsException {
        if (value.isEmpty()) {
            return List.of();
        }
        List<String> ips = new ArrayList<>();
        for (String ip : value.split(",", -1)) {
            String trimmed = ip.trim();
            if (!FlagValues.isIpLiteral(trimmed)) {
                throw invalid(value, FlagValues.quote(trimmed) + " is not a valid IP address");
            }
            ips.add(trimmed);
        }
        if (ips.size() > 2 || (ips.size() == 2 && ips.get(0).contains(":") == ips.get(1).contains(":"))) {
            throw invalid(value, "must contain either a single IP or a dual-stack pair of IPs");
        }
        if (ips.size() == 2 && (isUnspecified(ips.get(0)) || isUnspecified(ips.get(1)))) {
            throw invalid(value, "dual-stack node IP cannot include '0.0.0.0' or '::'");
        }
        return List.copyOf(ips);
    }

    private static FlagsException invalid(String value, String reason) {
        return new FlagsException("invalid argument " + FlagValues.quote(value) + " for \"--node-ip\" flag: " + reason);
    }

    static boolean isUnspecified(String ip) {
        try {
            return InetAddress.getByName(ip).isAnyLocalAddress();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The node's IPs as upstream's node address setter chooses its InternalIP: those given; else, unset or unspecified,
     * the node's name when it is an IP; else the first address the node's name resolves to that could be the node's
     * (not loopback, link-local, multicast or unspecified, and on one of this machine's interfaces), of the preferred
     * family if it has one; else the address of the interface of the default route ({@link HostInterfaces}). IPv4 is
     * preferred unless the given IP is {@code ::}. When nothing is found upstream's setter fails at every status
     * update; jkubelet says so once and takes loopback.
     */
    static List<String> resolve(List<String> given, String nodeName, HostNetwork network) {
        if (!given.isEmpty() && !(given.size() == 1 && isUnspecified(given.get(0)))) {
            return given;
        }
        boolean preferIpv6 = !given.isEmpty() && given.get(0).contains(":");
        if (FlagValues.isIpLiteral(nodeName)) {
            return List.of(format(HostInterfaces.literal(nodeName)));
        }
        try {
            Optional<InetAddress> named = byName(nodeName, network, preferIpv6);
            InetAddress chosen = named.isPresent() ? named.get() : HostInterfaces.choose(network, preferIpv6);
            return List.of(format(chosen));
        } catch (HostInterfaces.NoHostAddressException | IOException e) {
            String fallback = preferIpv6 ? "::1" : "127.0.0.1";
            log.warn("can't get ip address of node {}. error: {}; its address is {} (--node-ip sets it)", nodeName,
                    e.getMessage(), fallback);
            return List.of(fallback);
        }
    }

    /** Upstream's {@code net.LookupIP(node.Name)} step: the first valid address, of the preferred family if any is. */
    private static Optional<InetAddress> byName(String nodeName, HostNetwork network, boolean preferIpv6)
            throws IOException {
        List<InetAddress> resolved = network.lookup(nodeName);
        if (resolved.isEmpty()) {
            return Optional.empty();
        }
        Set<InetAddress> onThisMachine = new HashSet<>();
        network.interfaces().forEach(i -> onThisMachine.addAll(i.addresses()));
        InetAddress first = null;
        for (InetAddress a : resolved) {
            if (!couldBeTheNodes(a, onThisMachine)) {
                continue;
            }
            if ((a instanceof Inet6Address) == preferIpv6) {
                return Optional.of(a);
            }
            if (first == null) {
                first = a;
            }
        }
        return Optional.ofNullable(first);
    }

    /** Upstream's {@code validateNodeIP}. */
    private static boolean couldBeTheNodes(InetAddress a, Set<InetAddress> onThisMachine) {
        return !a.isLoopbackAddress() && !a.isMulticastAddress() && !a.isLinkLocalAddress() && !a.isAnyLocalAddress()
                && onThisMachine.contains(a);
    }

    /** As Go prints an IP: IPv6 in RFC 5952's short form ({@code 2001:db8::5}), without a zone. */
    static String format(InetAddress address) {
        if (address instanceof Inet4Address) {
            return address.getHostAddress();
        }
        byte[] b = address.getAddress();
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        // The longest run of two or more zero groups (the first of equal ones) becomes "::".
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; i++) {
            int length = 0;
            while (i + length < 8 && groups[i + length] == 0) {
                length++;
            }
            if (length > bestLength) {
                bestStart = i;
                bestLength = length;
            }
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(Integer.toHexString(groups[i]));
        }
        return out.toString();
    }
}
