package io.jkubelet.server.streaming;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The WebSocket subprotocols of Kubernetes' channel framing ({@code wsstream}): every message starts with
 * its channel number (a byte, or with the {@code base64} variants an ASCII digit followed by base64 text).
 * They differ in how an exec's outcome is reported on the error channel (3) and in whether a client can
 * close one stream (v5).
 */
enum ChannelProtocol {
    /** v5: as v4, plus {@code [255, n]} from the client closes its stream n (stdin's end). */
    V5("v5.channel.k8s.io", false, true, true),
    V4("v4.channel.k8s.io", false, true, false),
    V4_BASE64("v4.base64.channel.k8s.io", true, true, false),
    /** Before v4 only a failure was reported, as its plain message. */
    V1("channel.k8s.io", false, false, false),
    V1_BASE64("base64.channel.k8s.io", true, false, false),
    /** A client that asks for no subprotocol gets binary framing with v1 reporting. */
    NONE("", false, false, false);

    /** Exec and attach, as the kubelet (and, for v5, its stream translator) accepts them. */
    static final Set<ChannelProtocol> REMOTE_COMMAND = Set.of(V5, V4, V4_BASE64, V1, V1_BASE64, NONE);
    /** Port-forward accepts only the v4 names (or none). */
    static final Set<ChannelProtocol> PORT_FORWARD = Set.of(V4, V4_BASE64, NONE);

    /** The channel a v5 client writes {@code [255, n]} on to close its stream n. */
    static final int CLOSE_CHANNEL = 255;

    final String wireName;
    final boolean base64;
    final boolean statusJson;
    final boolean closeSignals;

    ChannelProtocol(String wireName, boolean base64, boolean statusJson, boolean closeSignals) {
        this.wireName = wireName;
        this.base64 = base64;
        this.statusJson = statusJson;
        this.closeSignals = closeSignals;
    }

    /**
     * Picks the subprotocol for a client that offered {@code offered} (in its order): none offered gives
     * {@link #NONE}; v5, when offered and supported, wins wherever it is (as the kubelet hands any v5
     * request to its translator); else the first offered that is supported.
     *
     * @return null when the client offered protocols and none is supported (upstream then answers 403)
     */
    static ChannelProtocol negotiate(List<String> offered, Set<ChannelProtocol> supported) {
        if (offered.isEmpty()) {
            return supported.contains(NONE) ? NONE : null;
        }
        if (supported.contains(V5) && offered.contains(V5.wireName)) {
            return V5;
        }
        for (String name : offered) {
            for (ChannelProtocol p : supported) {
                if (p != NONE && p.wireName.equals(name)) {
                    return p;
                }
            }
        }
        return null;
    }

    /** The subprotocols in {@code Sec-WebSocket-Protocol} headers: comma-separated, possibly repeated. */
    static List<String> offered(List<String> headerValues) {
        List<String> names = new ArrayList<>();
        for (String value : headerValues) {
            for (String part : value.split(",")) {
                String name = part.strip().toLowerCase(Locale.ROOT);
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        }
        return names;
    }
}
