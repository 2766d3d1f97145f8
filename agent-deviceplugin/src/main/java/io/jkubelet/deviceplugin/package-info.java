/**
 * The device plugin registration server and its plugin clients (upstream {@code pkg/kubelet/cm/devicemanager/plugin/v1beta1}),
 * over gRPC on unix sockets, behind the core's {@code io.jkubelet.core.cm.devicemanager} ports.
 */
package io.jkubelet.deviceplugin;
