/**
 * Questions about a pod's spec and its containers' resources that the whole kubelet asks (upstream's
 * {@code pkg/api/v1/pod} and resource helpers): fabric8's API types only, no kubelet part.
 */
package io.jkubelet.core.podutil;
