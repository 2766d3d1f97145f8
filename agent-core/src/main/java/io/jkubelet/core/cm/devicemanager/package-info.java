/**
 * The device manager (upstream {@code pkg/kubelet/cm/devicemanager}): device plugins register their extended resource
 * (through the {@link io.jkubelet.core.cm.devicemanager.DevicePluginServer} port, served by agent-deviceplugin), report
 * their devices and health, and are asked to allocate devices to containers at admission; the manager keeps which
 * devices each container holds in upstream's {@code kubelet_internal_checkpoint}, reports the resources' capacity and
 * allocatable to the node status, and hands each container's environment, mounts, device nodes and annotations to the
 * container's config. Its ports: {@link io.jkubelet.core.cm.devicemanager.DevicePlugin} (one plugin's API) and
 * {@link io.jkubelet.core.cm.devicemanager.PluginHandler} (what the server tells the manager).
 */
package io.jkubelet.core.cm.devicemanager;
