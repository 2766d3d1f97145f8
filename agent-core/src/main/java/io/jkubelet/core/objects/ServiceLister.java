package io.jkubelet.core.objects;

import io.fabric8.kubernetes.api.model.Service;

import java.util.List;

/**
 * The cluster's Services as the kubelet keeps them (upstream's service informer of every namespace), for the service
 * environment variables of containers. A standalone node has none, and has "read" them from the start.
 */
public interface ServiceLister {
    ServiceLister NONE = of(List.of());

    /** Whether the Services have been listed at least once; until then no container's env can be made. */
    boolean hasSynced();

    /** Every Service of every namespace. */
    List<Service> list();

    /** A fixed set of Services, read from the start. */
    static ServiceLister of(List<Service> services) {
        return new ServiceLister() {
            @Override
            public boolean hasSynced() {
                return true;
            }

            @Override
            public List<Service> list() {
                return List.copyOf(services);
            }
        };
    }
}
