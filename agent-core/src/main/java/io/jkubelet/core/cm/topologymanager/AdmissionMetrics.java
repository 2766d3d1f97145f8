package io.jkubelet.core.cm.topologymanager;

import java.time.Duration;

/**
 * What the topology manager tells the kubelet's metrics of its admissions (upstream's
 * {@code kubelet_topology_manager_admission_*}). Called on the admitting thread; implementations are thread-safe.
 */
public interface AdmissionMetrics {
    /** Counts nothing. */
    AdmissionMetrics NONE = new AdmissionMetrics() {
        @Override
        public void requested() {
        }

        @Override
        public void failed() {
        }

        @Override
        public void took(Duration took) {
        }
    };

    /** A pod comes to be admitted, whatever the policy. */
    void requested();

    /** The {@code container} or {@code pod} scope refused the pod (the {@code none} scope's refusals are not counted). */
    void failed();

    /** How long the scope took to decide, allocations included. */
    void took(Duration took);
}
