package io.jkubelet.cmd.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Binaries built from Debian's kubernetes v1.20.2 source by {@code bin/lib/kube-build.sh}, once per machine (cached in
 * {@code /var/cache/jkubelet}): upstream's sample device plugin.
 */
final class KubeBinaries {
    private KubeBinaries() {}

    /** Where kube-build.sh caches them ({@code $JK_KUBE_BIN}). */
    static Path bin() {
        return Path.of(System.getenv().getOrDefault("JK_KUBE_CACHE", "/var/cache/jkubelet/kubernetes-v1.20.2"), "bin");
    }

    /** Builds (or finds) it: {@code jk_ensure_sample_device_plugin}. */
    static void ensureSampleDevicePlugin() throws IOException, InterruptedException {
        Path root = ControlPlaneScript.projectRoot();
        Process p = new ProcessBuilder("bash", "-c", "source bin/lib/common.sh && source bin/lib/kube-build.sh"
                + " && jk_ensure_sample_device_plugin")
                .directory(root.toFile()).inheritIO().start();
        if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("building the sample device plugin failed");
        }
    }

    /** The project's checkout, found from {@code jkubelet.controlPlane} (its bin/control-plane). */
    static final class ControlPlaneScript {
        static Path projectRoot() {
            return Path.of(System.getProperty("jkubelet.controlPlane", "../bin/control-plane")).toAbsolutePath()
                    .getParent().getParent();
        }
    }
}
