package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.images.ImageGCPolicy;
import io.jkubelet.core.images.ImagePullLimits;
import io.jkubelet.core.kubelet.PodSourceSettings;
import io.jkubelet.core.nodestatus.NodeResources;
import io.jkubelet.docker.DockerRuntimeOptions;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/** The kubelet's and the runtime adapter's settings read off a defaulted, validated configuration. */
final class ConfigSettings {
    private ConfigSettings() {
    }

    /**
     * The Docker adapter's settings: every short call bounded by {@code runtimeRequestTimeout}, as upstream's CRI
     * calls, and the json-file driver's rotation.
     */
    static DockerRuntimeOptions dockerOptions(KubeletConfiguration config) {
        return DockerLogRotation.options(config,
                DockerRuntimeOptions.DEFAULTS.withRequestTimeout(config.runtimeRequestTimeout()));
    }

    /** How many pods this machine admits: {@code maxPods}, or fewer with {@code podsPerCore} (as its node status). */
    static int podCapacity(KubeletConfiguration config) {
        return NodeResources.podCapacity(config.maxPods(), config.podsPerCore(), Runtime.getRuntime().availableProcessors());
    }

    /** {@code serializeImagePulls}, {@code maxParallelImagePulls}, {@code registryPullQPS} and {@code registryBurst}. */
    static ImagePullLimits imagePulls(KubeletConfiguration config) {
        boolean serialize = config.serializeImagePulls() == null || config.serializeImagePulls();
        return new ImagePullLimits(serialize, config.maxParallelImagePulls(),
                Objects.requireNonNullElse(config.registryPullQPS(), 0), config.registryBurst());
    }

    /**
     * The image file system's band, from a configuration already defaulted and validated (so the policy is one
     * upstream accepts); a field left unset takes the v1beta1 default.
     */
    static ImageGCPolicy imageGcPolicy(KubeletConfiguration config) {
        ImageGCPolicy d = ImageGCPolicy.DEFAULT;
        return new ImageGCPolicy(
                Objects.requireNonNullElse(config.imageGCHighThresholdPercent(), d.highThresholdPercent()),
                Objects.requireNonNullElse(config.imageGCLowThresholdPercent(), d.lowThresholdPercent()),
                Objects.requireNonNullElse(config.imageMinimumGCAge(), d.minAge()),
                Objects.requireNonNullElse(config.imageMaximumGCAge(), d.maxAge()));
    }

    /** The static pod directory and manifest URL, as configured. */
    static PodSourceSettings podSources(KubeletConfiguration config) {
        Optional<Path> path = config.staticPodPath() == null || config.staticPodPath().isEmpty() ? Optional.empty()
                : Optional.of(Path.of(config.staticPodPath()));
        Optional<String> url = config.staticPodURL() == null || config.staticPodURL().isEmpty() ? Optional.empty()
                : Optional.of(config.staticPodURL());
        return new PodSourceSettings(path, config.fileCheckFrequency(), url, config.staticPodURLHeader(),
                config.httpCheckFrequency());
    }
}
