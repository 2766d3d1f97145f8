package io.jkubelet.cmd.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;

/** {@link PersistentVolumesIT} with the node on containerd: the same claims, mounts and restart, through the CRI. */
@Tag("containerd")
class ContainerdPersistentVolumesIT extends PersistentVolumesIT {
    static String[] agentArgs() {
        return new String[] {"--container-runtime-endpoint", ContainerdTestBase.ENDPOINT};
    }

    @Override
    String prefix() {
        return "pv-ctrd-";
    }

    /** The pods are the agent's on containerd: they go once it has stopped (the base class stops it again, idly). */
    @AfterAll
    static void removeThePodsFromContainerd() throws Exception {
        ContainerdTestBase.stopAndRemovePods(agent);
    }
}
