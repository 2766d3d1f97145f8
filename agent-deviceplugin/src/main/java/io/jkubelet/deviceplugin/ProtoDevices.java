package io.jkubelet.deviceplugin;

import io.jkubelet.core.cm.devicemanager.ContainerAllocateResponse;
import io.jkubelet.core.cm.devicemanager.Device;
import io.jkubelet.deviceplugin.v1beta1.DevicePluginApi;

import java.util.List;

/** The device plugin API's messages as the device manager's records. */
final class ProtoDevices {
    private ProtoDevices() {}

    static List<Device> devices(DevicePluginApi.ListAndWatchResponse response) {
        return response.getDevicesList().stream()
                .map(d -> new Device(d.getID(), d.getHealth(), d.hasTopology()
                        ? d.getTopology().getNodesList().stream().map(DevicePluginApi.NUMANode::getID).toList() : null))
                .toList();
    }

    static ContainerAllocateResponse allocateResponse(DevicePluginApi.ContainerAllocateResponse r) {
        return new ContainerAllocateResponse(r.getEnvsMap(),
                r.getMountsList().stream().map(m -> new ContainerAllocateResponse.Mount(m.getContainerPath(),
                        m.getHostPath(), m.getReadOnly())).toList(),
                r.getDevicesList().stream().map(d -> new ContainerAllocateResponse.DeviceSpec(d.getContainerPath(),
                        d.getHostPath(), d.getPermissions())).toList(),
                r.getAnnotationsMap(),
                r.getCdiDevicesList().stream().map(DevicePluginApi.CDIDevice::getName).toList());
    }
}
