package io.jkubelet.core.kubelet;

import io.jkubelet.core.credentialprovider.DockerConfigFiles;
import io.jkubelet.core.eviction.EvictionConfig;
import io.jkubelet.core.images.ImagePullLimits;
import io.jkubelet.core.kuberuntime.NodeContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The settings kubelet tests run with: node-a at 192.168.1.10, everything under a test's folder, a 1 s relist. */
final class TestSettings {
    private TestSettings() {}

    static KubeletSettings under(Path root) {
        return under(root, GcSettings.DEFAULT);
    }

    /** As {@link #under(Path)}, with these eviction thresholds. */
    static KubeletSettings under(Path root, EvictionConfig eviction) {
        KubeletSettings s = under(root);
        return new KubeletSettings(s.node(), s.rootDir(), s.syncFrequency(), s.relistPeriod(), s.gc(), s.maxPods(),
                s.imagePulls(), s.nodeCredentials(), s.kubeletVersion(), s.sources(), s.memoryCapacity(), s.cpuCfsQuota(),
                s.cpuCfsQuotaPeriod(), eviction, s.featureGates(), s.volumeStatsAggPeriod(), s.security());
    }

    /** As {@link #under(Path)}, with its own garbage collection settings. */
    static KubeletSettings under(Path root, GcSettings gc) {
        NodeContext node = new NodeContext("node-a", List.of("192.168.1.10"), root.resolve("logs/pods"),
                root.resolve("logs/containers"), "jkubelet/pause:3.9", List.of(), "cluster.local", x -> Math.max(x, 0));
        return new KubeletSettings(node, root.resolve("kubelet"), Duration.ofMinutes(1), Duration.ofSeconds(1),
                gc, 110, ImagePullLimits.SERIAL, DockerConfigFiles.SearchPaths.NONE, "v1.30.0", PodSourceSettings.NONE,
                8L << 30, true, Duration.ofMillis(100), EvictionConfig.NONE,
                io.jkubelet.core.apis.config.FeatureGates.of(java.util.Map.of()), Duration.ofMinutes(1),
                SecuritySettings.DEFAULT);
    }
}
