package io.jkubelet.cmd.e2e;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Docker's default runtime while the upstream kubelet is a test's node. Root on these machines lacks
 * {@code CAP_SYS_RESOURCE}, so runc cannot give a container the negative {@code oomScoreAdj} the upstream kubelet's
 * dockershim gives every sandbox (-998) and Guaranteed container: no pod of it could start. The test engines' runc
 * wrapper ({@code jk_docker_runtime_wrapped} of {@code bin/lib/common.sh}, as the conformance runner's Docker runs
 * have it) raises it to 0; jkubelet needs none, as it clamps the value itself.
 */
final class DockerDefaultRuntime {
    private DockerDefaultRuntime() {}

    /** The wrapper becomes the default runtime (dockerd reloads its configuration; running containers stay). */
    static void wrapper() throws IOException, InterruptedException {
        script("jk_docker_runtime_wrapped");
    }

    /** runc is the default runtime again. */
    static void runc() throws IOException, InterruptedException {
        script("jk_docker_runtime_runc");
    }

    private static void script(String function) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", "source bin/lib/common.sh && " + function)
                .directory(KubeBinaries.ControlPlaneScript.projectRoot().toFile()).inheritIO().start();
        if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException(function + " failed");
        }
    }
}
