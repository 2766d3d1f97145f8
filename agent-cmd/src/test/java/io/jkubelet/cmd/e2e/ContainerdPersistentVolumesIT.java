package io.jkubelet.cmd.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;

/**
 * {@link PersistentVolumesIT} with the node on containerd: the claims' mounts into containers through the CRI
 * (a local volume with {@code subPath} and {@code subPathExpr}, read-only), the agent's restart under them, and the
 * claim's usage in the CRI stats. The tests whose subject is the volume manager alone (a claim missing or unbound,
 * a second bind mount of the same kind) run on Docker only: each is overridden here without {@code @Test}, which
 * JUnit does not run.
 */
@Tag("containerd")
class ContainerdPersistentVolumesIT extends PersistentVolumesIT {
    static String[] agentArgs() {
        return new String[] {"--container-runtime-endpoint", ContainerdTestBase.ENDPOINT};
    }

    @Override
    String prefix() {
        return "pv-ctrd-";
    }

    /** The claim's lookup and its message are the volume manager's, whatever the runtime. */
    @Override
    void aPodWaitsWithUpstreamsMessageWhileItsClaimIsMissingAndItsDirectoryGoesWhenItIsDeleted() {
    }

    /** The wait for binding is the volume manager's, whatever the runtime. */
    @Override
    void aPodWaitsWithFailedMountWhileItsClaimIsUnboundOtherPodsRunAndItStartsOnceBound() {
    }

    /** A hostPath volume is mounted into containers as the local one of the StatefulSet-style test is. */
    @Override
    void twoPodsShareAReadWriteManyHostPathVolume() {
    }

    /** The pods are the agent's on containerd: they go once it has stopped (the base class stops it again, idly). */
    @AfterAll
    static void removeThePodsFromContainerd() throws Exception {
        ContainerdTestBase.stopAndRemovePods(agent);
    }
}
