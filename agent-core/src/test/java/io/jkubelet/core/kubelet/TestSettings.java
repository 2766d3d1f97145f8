package io.jkubelet.core.kubelet;

import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.credentialprovider.DockerConfigFiles;
import io.jkubelet.core.credentialprovider.plugin.CredentialProviderPlugins;
import io.jkubelet.core.eviction.EvictionConfig;
import io.jkubelet.core.images.ImagePullLimits;
import io.jkubelet.core.kuberuntime.NodeContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The settings kubelet tests run with: node-a at 192.168.1.10, everything under a test's folder, a 1 s relist. */
final class TestSettings {
    private TestSettings() {}

    static KubeletSettings under(Path root) {
        return builder(root).build();
    }

    /** As {@link #under(Path)}, with these eviction thresholds. */
    static KubeletSettings under(Path root, EvictionConfig eviction) {
        return builder(root).eviction(eviction).build();
    }

    /** As {@link #under(Path)}, with its own garbage collection settings. */
    static KubeletSettings under(Path root, GcSettings gc) {
        return builder(root).gc(gc).build();
    }

    /** The test settings, to change some of them. */
    static KubeletSettingsBuilder builder(Path root) {
        NodeContext node = new NodeContext("node-a", List.of("192.168.1.10"), root.resolve("logs/pods"),
                root.resolve("logs/containers"), "jkubelet/pause:3.9", List.of(), "cluster.local", x -> Math.max(x, 0));
        return KubeletSettings.builder()
                .node(node)
                .rootDir(root.resolve("kubelet"))
                .syncFrequency(Duration.ofMinutes(1))
                .relistPeriod(Duration.ofSeconds(1))
                .gc(GcSettings.DEFAULT)
                .maxPods(110)
                .imagePulls(ImagePullLimits.SERIAL)
                .nodeCredentials(DockerConfigFiles.SearchPaths.NONE)
                .credentialProviders(CredentialProviderPlugins.Flags.NONE)
                .kubeletVersion("v1.30.0")
                .sources(PodSourceSettings.NONE)
                .memoryCapacity(8L << 30)
                .cpuCfsQuota(true)
                .cpuCfsQuotaPeriod(Duration.ofMillis(100))
                .eviction(EvictionConfig.NONE)
                .featureGates(FeatureGates.of(Map.of()))
                .volumeStatsAggPeriod(Duration.ofMinutes(1))
                .security(SecuritySettings.DEFAULT)
                .enableControllerAttachDetach(true);
    }
}
