package io.jkubelet.core.cm.devicemanager;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A device plugin in memory (the shape of upstream's {@code device_plugin_stub.go}): answers {@code Allocate} with a
 * mount per device and one environment variable naming them, or the error it is given; records every call.
 */
public final class FakeDevicePlugin implements DevicePlugin {
    private final String resource;
    private final String socket;
    private final DevicePluginOptions options;
    public final List<List<String>> allocateCalls = new ArrayList<>();
    public final List<List<String>> preStartCalls = new ArrayList<>();
    public final List<List<String>> preferredCalls = new ArrayList<>();
    public volatile String allocateError;
    public volatile String preStartError;
    public volatile List<String> preferred = List.of();
    public volatile boolean noContainerResponses;
    /** Runs in each {@code Allocate} call before it answers: a test's clock moves on here. */
    public volatile Runnable duringAllocate = () -> { };

    public FakeDevicePlugin(String resource, String socket, DevicePluginOptions options) {
        this.resource = resource;
        this.socket = socket;
        this.options = options;
    }

    public FakeDevicePlugin(String resource) {
        this(resource, "/var/lib/kubelet/device-plugins/fake.sock", DevicePluginOptions.NONE);
    }

    @Override
    public String resource() {
        return resource;
    }

    @Override
    public String socketPath() {
        return socket;
    }

    @Override
    public DevicePluginOptions getDevicePluginOptions() {
        return options;
    }

    @Override
    public synchronized List<List<String>> getPreferredAllocation(List<String> available, List<String> mustInclude, int size) {
        preferredCalls.add(List.copyOf(available));
        return List.of(preferred);
    }

    @Override
    public synchronized List<ContainerAllocateResponse> allocate(List<String> devices) throws DevicePluginException {
        allocateCalls.add(List.copyOf(devices));
        duringAllocate.run();
        if (allocateError != null) {
            throw new DevicePluginException(allocateError);
        }
        if (noContainerResponses) {
            return List.of();
        }
        List<ContainerAllocateResponse.Mount> mounts = new ArrayList<>();
        devices.stream().sorted().forEach(d -> mounts.add(new ContainerAllocateResponse.Mount("/tmp/" + d, "/tmp/" + d, false)));
        return List.of(new ContainerAllocateResponse(Map.of("FAKE_DEVICES", String.join(",", devices.stream().sorted().toList())),
                mounts, List.of(new ContainerAllocateResponse.DeviceSpec("/dev/fake", "/dev/null", "rw")),
                Map.of("fake.example.com/devices", String.valueOf(devices.size())), List.of()));
    }

    @Override
    public synchronized void preStartContainer(List<String> devices) throws DevicePluginException {
        preStartCalls.add(List.copyOf(devices));
        if (preStartError != null) {
            throw new DevicePluginException(preStartError);
        }
    }
}
