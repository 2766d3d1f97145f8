package io.jkubelet.cmd;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --node-ip} as upstream reads it ({@code ParseNodeIPArgument} and the node address setter): one IP or a
 * dual-stack pair; unset or {@code 0.0.0.0}, the node's default IPv4 address, or its IPv6 one when it has no IPv4
 * address; {@code ::}, the default IPv6 address first. The default address is the first of an interface that is up
 * (not loopback, not link-local, not Docker's bridges or veths).
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

    /** The node's IPs: those given, or, unset or unspecified, the default address of the preferred family. */
    static List<String> resolve(List<String> given, List<InetAddress> hostAddresses) {
        if (!given.isEmpty() && !(given.size() == 1 && isUnspecified(given.get(0)))) {
            return given;
        }
        boolean preferIpv6 = !given.isEmpty() && given.get(0).contains(":");
        Optional<InetAddress> preferred = hostAddresses.stream()
                .filter(a -> (a instanceof Inet6Address) == preferIpv6).findFirst();
        Optional<InetAddress> chosen = preferred.or(() -> hostAddresses.stream().findFirst());
        return List.of(chosen.map(NodeIps::format).orElse(preferIpv6 ? "::1" : "127.0.0.1"));
    }

    /** The addresses of this machine's interfaces that can be the node's default address, in interface order. */
    static List<InetAddress> hostAddresses() {
        List<InetAddress> addresses = new ArrayList<>();
        try {
            for (NetworkInterface ni : NetworkInterface.networkInterfaces().toList()) {
                if (!ni.isUp() || ni.isLoopback() || ni.getName().startsWith("docker") || ni.getName().startsWith("veth")) {
                    continue;
                }
                for (InetAddress addr : ni.inetAddresses().toList()) {
                    if (!addr.isLoopbackAddress() && !addr.isLinkLocalAddress()) {
                        addresses.add(addr);
                    }
                }
            }
        } catch (IOException e) {
            log.warn("Cannot list network interfaces: {}", e.getMessage());
        }
        return addresses;
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
