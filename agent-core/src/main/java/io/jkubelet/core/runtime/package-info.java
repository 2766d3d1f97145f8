/**
 * The runtime port: a CRI-shaped view of a container runtime (after {@code k8s.io/cri-api} v1).
 *
 * <p>Everything the kubelet decides (ordering, restart policy, backoff, probes, hashes, status) lives
 * above this port in the core; an adapter only translates these calls to its runtime. The core
 * stores what it must recover after a restart (container hash, restart count, grace period, ...) in
 * the labels and annotations it passes here, exactly as the kubelet does through the CRI, so an
 * adapter must return them unchanged from the list and status calls.
 */
package io.jkubelet.core.runtime;
