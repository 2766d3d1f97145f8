package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.DirUsage;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upstream's {@code fsResourceAnalyzer}: each pod's volume usage (its emptyDir directories), walked at most once every
 * {@code volumeStatsAggPeriod} and kept in between, since walking a large volume is the costly part of a stats round.
 * A period of zero or less disables volume stats, as upstream's ({@code Volume stats collection disabled}): pods then
 * report no volumes, and their ephemeral storage counts none. Used by the stats collector thread only.
 */
final class PodVolumeUsage {
    private static final Logger log = LoggerFactory.getLogger(PodVolumeUsage.class);

    /** One emptyDir volume's usage, as last measured. */
    record Volume(String name, Instant measured, DirUsage usage) {
    }

    private record Measured(Instant at, List<Volume> volumes) {
    }

    private final Duration calcPeriod;
    private final Map<String, Measured> byPod = new HashMap<>();

    PodVolumeUsage(Duration calcPeriod) {
        this.calcPeriod = calcPeriod;
        if (disabled()) {
            log.info("Volume stats collection disabled (volumeStatsAggPeriod {})", calcPeriod);
        }
    }

    boolean disabled() {
        return calcPeriod.isNegative() || calcPeriod.isZero();
    }

    /** The volumes under {@code emptyDirs} of pod {@code podUid}, measured again once the last reading is a period old. */
    List<Volume> volumes(String podUid, Path emptyDirs, Instant now) {
        if (disabled()) {
            return List.of();
        }
        Measured last = byPod.get(podUid);
        if (last != null && now.isBefore(last.at().plus(calcPeriod))) {
            return last.volumes();
        }
        List<Volume> volumes = measure(emptyDirs, now);
        byPod.put(podUid, new Measured(now, volumes));
        return volumes;
    }

    /** Forgets the pods that no longer run. */
    void retainPods(Set<String> podUids) {
        byPod.keySet().retainAll(podUids);
    }

    private static List<Volume> measure(Path emptyDirs, Instant now) {
        List<Volume> volumes = new ArrayList<>();
        if (Files.isDirectory(emptyDirs)) {
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(emptyDirs)) {
                for (Path dir : dirs) {
                    volumes.add(new Volume(dir.getFileName().toString(), now, DirUsage.of(dir)));
                }
            } catch (IOException e) {
                log.debug("cannot list {}: {}", emptyDirs, e.getMessage());
            }
        }
        volumes.sort(Comparator.comparing(Volume::name));
        return List.copyOf(volumes);
    }
}
