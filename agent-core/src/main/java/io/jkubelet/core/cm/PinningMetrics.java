package io.jkubelet.core.cm;

/**
 * What a resource manager's {@code static} policy tells the kubelet's metrics of the containers it pins resources to
 * (upstream's {@code kubelet_cpu_manager_pinning_*} and {@code kubelet_memory_manager_pinning_*}). Called while the
 * manager allocates, under its lock: implementations are thread-safe and quick.
 */
public interface PinningMetrics {
    /** Counts nothing: a manager whose metrics nobody reads. */
    PinningMetrics NONE = new PinningMetrics() {
        @Override
        public void requested() {
        }

        @Override
        public void failed() {
        }
    };

    /** A container's allocation that needs resources of its own (exclusive CPUs, pinned memory) began. */
    void requested();

    /** That allocation failed: the container is refused. */
    void failed();
}
