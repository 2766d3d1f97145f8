package io.jkubelet.core.config;

/** Names of the pod sources, after {@code kubetypes.FileSource} and friends. */
public final class PodSources {

    /** Static pods read from {@code staticPodPath}. */
    public static final String FILE = "file";
    /** Static pods fetched from {@code staticPodURL}. */
    public static final String HTTP = "http";
    /** Pods bound to this node on the apiserver. */
    public static final String API = "api";
    /** Every source at once: the source of a {@link PodConfig#sync()} snapshot. */
    public static final String ALL = "*";

    private PodSources() {
    }
}
