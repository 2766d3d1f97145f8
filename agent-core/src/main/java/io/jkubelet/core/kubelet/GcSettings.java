package io.jkubelet.core.kubelet;

import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.images.ImageGCManager;
import io.jkubelet.core.images.ImageGCPolicy;

import java.time.Duration;

/**
 * How the kubelet collects garbage: dead containers and sandboxes, and unused images.
 *
 * @param containerGcPeriod how often dead containers are collected
 * @param containerPolicy what container GC keeps (the deprecated {@code --maximum-dead-containers*} flags)
 * @param imageGcPeriod how often unused images are collected
 * @param imagePolicy the image file system's band ({@code imageGC*Percent}, {@code image*GCAge})
 */
public record GcSettings(Duration containerGcPeriod, GCPolicy containerPolicy, Duration imageGcPeriod,
                         ImageGCPolicy imagePolicy) {
    /** Upstream's {@code ContainerGCPeriod}. */
    public static final Duration CONTAINER_GC_PERIOD = Duration.ofMinutes(1);

    /** Upstream's periods and the defaults of every flag and field. */
    public static final GcSettings DEFAULT = new GcSettings(CONTAINER_GC_PERIOD, GCPolicy.DEFAULT, ImageGCManager.PERIOD,
            ImageGCPolicy.DEFAULT);

    /** Upstream's periods with these policies. */
    public static GcSettings of(GCPolicy containerPolicy, ImageGCPolicy imagePolicy) {
        return new GcSettings(CONTAINER_GC_PERIOD, containerPolicy, ImageGCManager.PERIOD, imagePolicy);
    }
}
