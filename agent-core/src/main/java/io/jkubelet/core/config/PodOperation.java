package io.jkubelet.core.config;

/**
 * What a {@link PodUpdate} means, after {@code kubetypes.PodOperation} (same names, same order).
 */
public enum PodOperation {
    /** The complete set of pods of one source: what a source sends; never what {@link PodConfig} emits. */
    SET,
    /** Pods that are new to the kubelet. An empty ADD on a source's first SET means "source ready". */
    ADD,
    /** Pods whose deletion timestamp was set: terminate them gracefully. */
    DELETE,
    /** Pods that are gone from their source: stop and forget them. */
    REMOVE,
    /** Pods whose spec, labels or non-local annotations changed. */
    UPDATE,
    /** Pods whose status alone changed: the kubelet is the source of truth for status, so it reconciles. */
    RECONCILE
}
