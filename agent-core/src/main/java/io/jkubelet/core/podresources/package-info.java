/**
 * The pod-resources API's answers (upstream {@code pkg/kubelet/apis/podresources}, its v1 server over the providers the
 * kubelet hands it): which devices, exclusive CPUs and memory each container of each pod holds, and what the node has to
 * give. The gRPC service on {@code <root-dir>/pod-resources/kubelet.sock} (agent-deviceplugin) serves these.
 */
package io.jkubelet.core.podresources;
