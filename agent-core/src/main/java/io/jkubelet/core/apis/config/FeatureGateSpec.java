package io.jkubelet.core.apis.config;

/**
 * What the kubelet knows of one feature gate (upstream's {@code featuregate.FeatureSpec}) and what jkubelet does with
 * it.
 *
 * @param defaultValue the gate's value when it is not set
 * @param stage        upstream's {@code PreRelease}
 * @param locked       upstream's {@code LockToDefault}: any other value is refused
 * @param support      what jkubelet does with the gate
 * @param effect       what the gate changes in jkubelet, for the documentation and the refusal message
 */
public record FeatureGateSpec(boolean defaultValue, Stage stage, boolean locked, Support support, String effect) {

    /** Upstream's {@code featuregate.prerelease}. */
    public enum Stage { ALPHA, BETA, GA, DEPRECATED }

    /** What jkubelet does with a gate. */
    public enum Support {
        /** Either value acts in jkubelet as it does upstream. */
        IMPLEMENTED,
        /**
         * A kubelet gate whose other value jkubelet does not implement: its default is accepted (that is what
         * jkubelet does), the other value is refused at start-up.
         */
        DEFAULT_ONLY,
        /** A gate of the control plane's components: upstream's kubelet accepts it and nothing in it reads it. */
        NOT_FOR_THE_KUBELET
    }
}
