package io.jkubelet.core.status;

import io.fabric8.kubernetes.api.model.Container;

/**
 * Readiness and startup of running containers, as the probe manager knows them. Owned by its consumer.
 */
public interface ContainerProbeView {
    /** Without probes a running container is ready and started as soon as it runs. */
    ContainerProbeView NO_PROBES = new ContainerProbeView() {
        @Override public boolean ready(String podUid, Container spec, String containerId) { return true; }
        @Override public boolean started(String podUid, Container spec, String containerId) { return true; }
    };

    /** Whether a running container passes its readiness probe (true when it has none). */
    boolean ready(String podUid, Container spec, String containerId);

    /** Whether a running container passed its startup probe (true when it has none). */
    boolean started(String podUid, Container spec, String containerId);
}
