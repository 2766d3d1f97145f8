package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.DirUsage;
import io.jkubelet.cadvisor.FsUsage;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * One mounted volume's usage, measured in the background and kept (upstream's {@code volumeStatCalculator}, which does
 * so for each pod; here for each volume, so that a volume whose measurement hangs, a CSI driver that does not answer
 * {@code NodeGetVolumeStats}, holds up no other volume, not even its pod's others). A measurement starts at most once
 * every period and never while the last one runs; until it ends, the last one's reading is served. A volume that cannot
 * be measured has no reading (upstream leaves it out of its pod's stats): quietly when its metrics are not supported.
 * Thread-safe: started and read by the stats collector, written by its measurement's thread.
 */
final class VolumeStatCalculator {
    private static final Logger log = LoggerFactory.getLogger(VolumeStatCalculator.class);

    private Instant lastStarted;
    private boolean measuring;
    private PodVolumeUsage.Volume latest;

    /**
     * Starts measuring {@code volume} on {@code measurements} when the last measurement started a period ago or more
     * and has ended; its reading is then dated {@code now}.
     */
    void startIfDue(PodVolume volume, Instant now, Duration period, Executor measurements) {
        synchronized (this) {
            if (measuring || (lastStarted != null && now.isBefore(lastStarted.plus(period)))) {
                return;
            }
            measuring = true;
            lastStarted = now;
        }
        try {
            measurements.execute(() -> measure(volume, now));
        } catch (RejectedExecutionException e) {
            // The stats are stopping.
            synchronized (this) {
                measuring = false;
            }
        }
    }

    /** The latest reading; empty before the first measurement ends, or when the last one failed. */
    synchronized Optional<PodVolumeUsage.Volume> latest() {
        return Optional.ofNullable(latest);
    }

    private void measure(PodVolume volume, Instant at) {
        PodVolumeUsage.Volume reading = null;
        try {
            reading = read(volume, at);
        } catch (RuntimeException e) {
            log.warn("Failed to calculate volume metrics of volume {} at {}: {}", volume.name(), volume.path(), e.toString());
        } finally {
            synchronized (this) {
                latest = reading;
                measuring = false;
            }
        }
    }

    /**
     * Upstream's metrics providers: the volume's files walked ({@code MetricsDu}), its file system's figures
     * ({@code MetricsStatFS}), nothing ({@code MetricsNil}), or its plugin's provider (a CSI driver's
     * {@code NodeGetVolumeStats}, which may take up to the driver's deadline).
     *
     * @return null when the volume cannot be measured
     */
    private static PodVolumeUsage.Volume read(PodVolume v, Instant at) {
        switch (v.metrics()) {
            case VolumeMetrics.Local.DU -> {
                return new PodVolumeUsage.Volume(v, at, DirUsage.of(v.path()), null);
            }
            case VolumeMetrics.Local.STATFS -> {
                try {
                    return new PodVolumeUsage.Volume(v, at, null, statFs(FsUsage.read(v.path())));
                } catch (IOException e) {
                    log.debug("cannot read the file system of volume {} at {}: {}", v.name(), v.path(), e.getMessage());
                    return null;
                }
            }
            case VolumeMetrics.Local.NONE -> {
                return null; // upstream's MetricsNil: "metrics are not supported"
            }
            case VolumeMetrics.Provider provider -> {
                try {
                    return new PodVolumeUsage.Volume(v, at, null, provider.getMetrics());
                } catch (VolumeMetrics.NotSupportedException e) {
                    return null; // expected of a volume that cannot be measured
                } catch (VolumeException e) {
                    log.debug("Failed to calculate volume metrics of volume {}: {}", v.name(), e.getMessage());
                    return null;
                }
            }
        }
    }

    /** {@code MetricsStatFS}: the file system's figures, what it holds as the volume's usage. */
    private static VolumeMetrics.Metrics statFs(FsUsage fs) {
        return new VolumeMetrics.Metrics(fs.capacityBytes(), fs.availableBytes(), fs.usedBytes(), fs.inodes(),
                fs.inodesFree(), fs.inodesUsed());
    }
}
