package io.jkubelet.cmd.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;

/**
 * {@link RunAsNonRootCases} on containerd: the image's user comes from containerd's CRI {@code ImageStatus}
 * ({@code uid}/{@code username}), the images copied in from Docker.
 */
@Tag("containerd")
class ContainerdRunAsNonRootIT extends RunAsNonRootCases {
    static String[] agentArgs() throws Exception {
        UserImages.ensureOnContainerd();
        return new String[] {"--container-runtime-endpoint", ContainerdTestBase.ENDPOINT};
    }

    /** The pods are the agent's on containerd: they go once it has stopped (the base class stops it again, idly). */
    @AfterAll
    static void removeThePodsFromContainerd() throws Exception {
        ContainerdTestBase.stopAndRemovePods(agent);
    }

    @Override
    String prefix() {
        return "ctrd-nonroot-";
    }
}
