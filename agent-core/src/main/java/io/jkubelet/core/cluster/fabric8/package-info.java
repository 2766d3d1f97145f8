/**
 * The core's apiserver ports implemented with fabric8's {@code KubernetesClient}: the only package of the core, with
 * {@link io.jkubelet.core.cluster} that assembles it, that sees the client. Each adapter implements one consumer's
 * port (named after it, with {@code Fabric8} in front) and turns fabric8's client exceptions into
 * {@link io.jkubelet.core.apierrors.ApiException}s; fabric8's model types (Pod, Node, Lease...) are the API's and go
 * through unchanged.
 */
package io.jkubelet.core.cluster.fabric8;
