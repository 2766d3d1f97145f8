package io.jkubelet.core.volume.csi;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSINodeBuilder;
import io.fabric8.kubernetes.api.model.storage.CSINodeDriver;
import io.fabric8.kubernetes.api.model.storage.CSINodeDriverBuilder;
import io.fabric8.kubernetes.api.model.storage.VolumeNodeResources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The CSINode object's spec as registering and deregistering a driver changes it (upstream nodeinfomanager's
 * {@code CreateCSINode}, {@code installDriverToCSINode} and {@code tryUninstallDriverFromCSINode} without their
 * requests). The CSI migration annotation upstream also keeps there is not written: this kubelet migrates no in-tree
 * plugin, so upstream's set of migrated plugins would be empty and the annotation absent as well.
 */
final class CsiNodeSpecs {
    private static final Logger log = LoggerFactory.getLogger(CsiNodeSpecs.class);

    private CsiNodeSpecs() {}

    /** A CSINode named as the node, owned by it (so that it goes with the node), without drivers. */
    static CSINode newCsiNode(Node node) {
        return new CSINodeBuilder()
                .withNewMetadata().withName(node.getMetadata().getName())
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("v1").withKind("Node")
                        .withName(node.getMetadata().getName()).withUid(node.getMetadata().getUid()).build())
                .endMetadata()
                .withNewSpec().withDrivers(new ArrayList<>()).endSpec()
                .build();
    }

    /**
     * Puts the driver into the spec (last, replacing a namesake), unless a namesake with the same node ID and topology
     * keys is there already.
     *
     * @param maxAttachLimit the driver's {@code max_volumes_per_node}: the driver's {@code allocatable.count}, cut to
     *     the largest int32; none when it is not positive
     * @return whether the spec changed (and must be written)
     */
    static boolean installDriver(CSINode csiNode, String driverName, String nodeId, long maxAttachLimit,
                                 Map<String, String> topology) {
        TreeSet<String> topologyKeys = new TreeSet<>(topology.keySet());
        boolean modified = true;
        List<CSINodeDriver> drivers = new ArrayList<>();
        for (CSINodeDriver d : currentDrivers(csiNode)) {
            if (d.getName().equals(driverName)) {
                List<String> keys = d.getTopologyKeys() == null ? List.of() : d.getTopologyKeys();
                if (nodeId.equals(d.getNodeID()) && new HashSet<>(keys).equals(topologyKeys)) {
                    modified = false;
                }
            } else {
                drivers.add(d);
            }
        }
        if (!modified) {
            return false;
        }
        CSINodeDriverBuilder driver = new CSINodeDriverBuilder().withName(driverName).withNodeID(nodeId)
                .withTopologyKeys(new ArrayList<>(topologyKeys));
        if (maxAttachLimit > 0) {
            if (maxAttachLimit > Integer.MAX_VALUE) {
                log.warn("Exceeded max supported attach limit value, truncating it to {}", Integer.MAX_VALUE);
            }
            driver.withAllocatable(new VolumeNodeResources((int) Math.min(maxAttachLimit, Integer.MAX_VALUE)));
        } else {
            log.error("Invalid attach limit value {} cannot be added to CSINode object for \"{}\"", maxAttachLimit,
                    driverName);
        }
        drivers.add(driver.build());
        csiNode.getSpec().setDrivers(drivers);
        return true;
    }

    /** Takes the driver out of the spec; whether it was there. */
    static boolean uninstallDriver(CSINode csiNode, String driverName) {
        List<CSINodeDriver> drivers = new ArrayList<>(currentDrivers(csiNode));
        if (!drivers.removeIf(d -> d.getName().equals(driverName))) {
            return false;
        }
        csiNode.getSpec().setDrivers(drivers);
        return true;
    }

    private static List<CSINodeDriver> currentDrivers(CSINode csiNode) {
        if (csiNode.getSpec() == null) {
            csiNode.setSpec(new io.fabric8.kubernetes.api.model.storage.CSINodeSpec(new ArrayList<>()));
        }
        return csiNode.getSpec().getDrivers() == null ? List.of() : csiNode.getSpec().getDrivers();
    }
}
