package io.jkubelet.cmd;

import io.jkubelet.cmd.FlagValues.BadValue;
import io.jkubelet.core.apis.config.MemoryReservation;
import io.jkubelet.core.apis.config.Taint;
import io.jkubelet.core.config.validation.QuantityFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parsers of the kubelet's own flag types for configuration fields ({@code pkg/util/flag}'s
 * {@code RegisterWithTaintsVar} and {@code ReservedMemoryVar}, cliflag's {@code MapStringStringNoSplit}), with
 * upstream's messages. Each throws {@link BadValue} with the reason only; the caller names the flag.
 */
final class ConfigFlagValues {

    private static final Set<String> TAINT_EFFECTS = Set.of("NoSchedule", "PreferNoSchedule", "NoExecute");

    private ConfigFlagValues() {
    }

    /**
     * {@code RegisterWithTaintsVar}: comma-separated {@code key[=value]:effect} (upstream's {@code ParseTaint}); the
     * key and value themselves are checked with the configuration's {@code registerWithTaints}.
     */
    static List<Taint> taints(String s) throws BadValue {
        List<Taint> taints = new ArrayList<>();
        for (String spec : s.split(",", -1)) {
            String[] parts = spec.split(":", -1);
            if (parts.length == 1) {
                taints.add(new Taint(parts[0], "", ""));
                continue;
            }
            if (parts.length != 2) {
                throw new BadValue("invalid taint spec: " + spec);
            }
            if (!TAINT_EFFECTS.contains(parts[1])) {
                throw new BadValue("invalid taint effect: " + parts[1] + ", unsupported taint effect");
            }
            String[] keyValue = parts[0].split("=", -1);
            if (keyValue.length > 2) {
                throw new BadValue("invalid taint spec: " + spec);
            }
            taints.add(new Taint(keyValue[0], keyValue.length == 2 ? keyValue[1] : "", parts[1]));
        }
        return taints;
    }

    /**
     * {@code ReservedMemoryVar}: {@code numaNode:type=quantity[,type=quantity...]} reservations separated by
     * {@code ;}, added to {@code into} (a node named twice gets the types of both).
     */
    static void reservedMemory(String s, List<MemoryReservation> into) throws BadValue {
        if (s.isEmpty()) {
            return;
        }
        for (String reservation : s.split(";", -1)) {
            String[] node = reservation.split(":", -1);
            if (node.length != 2) {
                throw new BadValue("the reserved memory has incorrect format, expected "
                        + "numaNodeID:type=quantity[,type=quantity...], got " + reservation);
            }
            Map<String, String> limits = new LinkedHashMap<>();
            for (String typed : node[1].split(",", -1)) {
                String[] limit = typed.split("=", -1);
                if (limit.length != 2) {
                    throw new BadValue("the reserved limit has incorrect value, expected type=quantatity, got " + typed);
                }
                if (!limit[0].equals("memory") && !limit[0].startsWith("hugepages-")) {
                    throw new BadValue("memory type conversion error, unknown type: \"" + limit[0] + "\"");
                }
                try {
                    QuantityFormat.parse(limit[1]);
                } catch (IllegalArgumentException e) {
                    throw new BadValue("failed to parse the quantatity, expected quantatity, got " + limit[1]);
                }
                limits.put(limit[0], limit[1]);
            }
            int numaNode;
            try {
                numaNode = Integer.parseInt(node[0]);
            } catch (NumberFormatException e) {
                throw new BadValue("failed to convert the NUMA node ID, exptected integer, got " + node[0]);
            }
            mergeInto(into, numaNode, limits);
        }
    }

    private static void mergeInto(List<MemoryReservation> into, int numaNode, Map<String, String> limits) {
        for (int i = 0; i < into.size(); i++) {
            if (into.get(i).numaNode() == numaNode) {
                Map<String, String> merged = new LinkedHashMap<>(into.get(i).limits());
                merged.putAll(limits);
                into.set(i, new MemoryReservation(numaNode, merged));
                return;
            }
        }
        into.add(new MemoryReservation(numaNode, limits));
    }

    /** cliflag's {@code MapStringStringNoSplit}: the whole value is one {@code key=value} pair. */
    static Map.Entry<String, String> pair(String s) throws BadValue {
        int at = s.indexOf('=');
        if (at < 0) {
            throw new BadValue("malformed pair, expect string=string");
        }
        return Map.entry(s.substring(0, at).trim(), s.substring(at + 1).trim());
    }
}
