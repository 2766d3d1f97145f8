package io.jkubelet.core.kubelet;

import io.jkubelet.core.cluster.ClusterSide;
import io.jkubelet.core.config.FileSource;
import io.jkubelet.core.config.HttpSource;
import io.jkubelet.core.config.PodConfig;
import io.jkubelet.core.config.PodSources;
import io.jkubelet.core.util.StopSequence;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The node's pod sources (upstream {@code makePodSourceConfig}): the apiserver's pods bound to the node, the static
 * pod directory and the manifest URL. Each registers with the pod config as it is made, so that housekeeping waits
 * for all of them from the start; none reads anything before {@link #start}.
 */
final class PodSourceSet {
    private record PodSource(String name, Runnable start, AutoCloseable stop) {}

    private final List<PodSource> sources = new ArrayList<>();

    /**
     * @throws IllegalArgumentException when the manifest URL cannot be used (the message names the setting)
     */
    PodSourceSet(PodSourceSettings settings, String nodeName, ClusterSide cluster, PodConfig podConfig) {
        cluster.podSource(nodeName, () -> podConfig.channel(PodSources.API))
                .ifPresent(api -> sources.add(new PodSource(PodSources.API, api::start, api)));
        settings.staticPodPath().ifPresent(path -> {
            FileSource files = new FileSource(path, nodeName, settings.fileCheckFrequency(), podConfig.channel(PodSources.FILE));
            sources.add(new PodSource(PodSources.FILE, files::start, files));
        });
        if (settings.staticPodUrl().isPresent()) {
            HttpSource http;
            try {
                http = new HttpSource(URI.create(settings.staticPodUrl().get()), settings.staticPodUrlHeader(), nodeName,
                        settings.httpCheckFrequency(), podConfig.channel(PodSources.HTTP));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("staticPodURL (--manifest-url): " + e.getMessage(), e);
            }
            sources.add(new PodSource(PodSources.HTTP, http::start, http));
        }
    }

    /** Starts reading every source, each added to {@code running} to be stopped first. */
    void start(StopSequence running) {
        for (PodSource s : sources) {
            s.start().run();
            running.add("source-" + s.name(), s.stop());
        }
    }
}
