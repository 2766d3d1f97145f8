/**
 * The pod-resources API v1 served on {@code <root-dir>/pod-resources/kubelet.sock} (upstream
 * {@code pkg/kubelet/apis/podresources} and {@code server.ListenAndServePodResources}), over the core's
 * {@link io.jkubelet.core.podresources.PodResourcesLister}.
 */
package io.jkubelet.podresources;
