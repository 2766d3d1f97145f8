package io.jkubelet.core.nodelease;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.jkubelet.core.apierrors.ApiException;

/**
 * What the lease controller asks of the apiserver (upstream's {@code coordclientset.LeaseInterface}, and the
 * {@code Nodes().Get} of its owner-reference function). Each call is one request, never retried.
 */
public interface LeaseClient {
    /** The lease, or null when there is none. */
    Lease getLease(String namespace, String name) throws ApiException;

    /** Creates the lease in its namespace; returns it as stored. */
    Lease createLease(Lease lease) throws ApiException;

    /** Updates the lease (409 when its resourceVersion is stale); returns it as stored. */
    Lease updateLease(Lease lease) throws ApiException;

    /** The node, or null when it is not registered (yet). */
    Node getNode(String name) throws ApiException;
}
