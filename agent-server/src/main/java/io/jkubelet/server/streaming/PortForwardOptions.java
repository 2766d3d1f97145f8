package io.jkubelet.server.streaming;

import io.jkubelet.server.http.Request;
import java.util.ArrayList;
import java.util.List;

/**
 * The ports of a WebSocket port-forward, from the repeated {@code port} query parameter (each value may
 * list several, comma-separated), with upstream's {@code portforward.NewV4Options} errors.
 */
public record PortForwardOptions(List<Integer> ports) {

    public PortForwardOptions {
        ports = List.copyOf(ports);
    }

    /** @throws IllegalArgumentException with upstream's text for a missing, empty or bad port */
    public static PortForwardOptions parse(Request request) {
        List<String> values = request.queryParams("port");
        if (values.isEmpty()) {
            throw new IllegalArgumentException("query parameter \"port\" is required");
        }
        List<Integer> ports = new ArrayList<>();
        for (String value : values) {
            if (value.isEmpty()) {
                throw new IllegalArgumentException("query parameter \"port\" cannot be empty");
            }
            for (String p : value.split(",", -1)) {
                int port = parsePort(value, p);
                if (port < 1) {
                    throw new IllegalArgumentException("port \"" + value + "\" must be > 0");
                }
                ports.add(port);
            }
        }
        return new PortForwardOptions(ports);
    }

    /** Go's {@code strconv.ParseUint(p, 10, 16)}, with its error texts. */
    private static int parsePort(String value, String p) {
        String why;
        if (p.isEmpty() || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
            why = "invalid syntax";
        } else {
            try {
                int port = Integer.parseInt(p);
                if (port <= 0xFFFF) {
                    return port;
                }
            } catch (NumberFormatException tooLong) {
                // Falls through to "out of range", as Go says for digits that overflow.
            }
            why = "value out of range";
        }
        throw new IllegalArgumentException("unable to parse \"" + value + "\" as a port: strconv.ParseUint: parsing \""
                + p + "\": " + why);
    }
}
