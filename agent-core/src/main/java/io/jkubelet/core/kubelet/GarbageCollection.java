package io.jkubelet.core.kubelet;

import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.images.ImageGCManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs container GC and image GC on their periods (upstream {@code StartGarbageCollection}). The timers only hand
 * each pass to the executor, so that a slow runtime never holds the timers the loop's ticks share; a pass still
 * running when the next is due makes that one skip. A failed container GC is logged with a {@code ContainerGCFailed}
 * event; an image GC failure is only logged the first time in a row (upstream: what it needs may not be ready yet),
 * a repeated one also gets an {@code ImageGCFailed} event. Thread-safe.
 */
final class GarbageCollection {
    private static final Logger log = LoggerFactory.getLogger(GarbageCollection.class);
    static final String CONTAINER_GC_FAILED = "ContainerGCFailed";
    static final String IMAGE_GC_FAILED = "ImageGCFailed";

    /** One container GC pass. */
    @FunctionalInterface
    interface ContainerPass {
        void run();
    }

    private final ContainerPass containerGc;
    private final ImageGCManager imageGc;
    private final GcSettings settings;
    private final EventRecorder recorder;
    private final String nodeName;
    private final Clock clock;
    private final AtomicBoolean containerPassRunning = new AtomicBoolean();
    private final AtomicBoolean imagePassRunning = new AtomicBoolean();
    private volatile boolean imageGcFailedBefore;
    private volatile Instant beganImageGc;

    GarbageCollection(ContainerPass containerGc, ImageGCManager imageGc, GcSettings settings, EventRecorder recorder,
                      String nodeName, Clock clock) {
        this.containerGc = containerGc;
        this.imageGc = imageGc;
        this.settings = settings;
        this.recorder = recorder;
        this.nodeName = nodeName;
        this.clock = clock;
    }

    /**
     * Schedules both. Container GC first runs one period from now; image GC at once, so that the images present
     * at start are first seen then (and protected for the minimum age from then on), as upstream's detection at
     * start does. Image GC is not scheduled when its policy has nothing periodic to do.
     */
    void start(ScheduledExecutorService timers, Executor executor) {
        long containerMillis = settings.containerGcPeriod().toMillis();
        timers.scheduleWithFixedDelay(() -> runOnce(containerPassRunning, this::collectContainers, executor),
                containerMillis, containerMillis, TimeUnit.MILLISECONDS);
        if (!imageGc.policy().periodic()) {
            log.info("imageGCHighThresholdPercent is 100 and imageMaximumGCAge is 0: periodic image GC is off");
            return;
        }
        beganImageGc = clock.instant();
        timers.scheduleWithFixedDelay(() -> runOnce(imagePassRunning, this::collectImages, executor),
                0, settings.imageGcPeriod().toMillis(), TimeUnit.MILLISECONDS);
    }

    private static void runOnce(AtomicBoolean running, Runnable pass, Executor executor) {
        if (!running.compareAndSet(false, true)) {
            return; // the previous pass is still at work
        }
        try {
            executor.execute(() -> {
                try {
                    pass.run();
                } finally {
                    running.set(false);
                }
            });
        } catch (RuntimeException e) {
            running.set(false); // the executor is shut down: the kubelet is stopping
        }
    }

    void collectContainers() {
        long start = System.nanoTime();
        try {
            containerGc.run();
            log.debug("Container garbage collection succeeded in {} ms", Duration.ofNanos(System.nanoTime() - start).toMillis());
        } catch (RuntimeException e) {
            log.warn("Container garbage collection failed: {}", e.getMessage());
            recorder.event(References.node(nodeName), EventRecorder.WARNING, CONTAINER_GC_FAILED, String.valueOf(e.getMessage()));
        }
    }

    void collectImages() {
        Instant began = beganImageGc != null ? beganImageGc : clock.instant();
        try {
            imageGc.garbageCollect(began);
            if (imageGcFailedBefore) {
                log.info("Image garbage collection succeeded");
            }
            imageGcFailedBefore = false;
        } catch (ImageGCManager.ImageGCException | RuntimeException e) {
            if (imageGcFailedBefore) {
                log.error("Image garbage collection failed multiple times in a row: {}", e.getMessage());
                recorder.event(References.node(nodeName), EventRecorder.WARNING, IMAGE_GC_FAILED, String.valueOf(e.getMessage()));
            } else {
                log.warn("Image garbage collection failed (an event follows if the next pass fails too): {}",
                        e.getMessage());
            }
            imageGcFailedBefore = true;
        }
    }
}
