package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RegistryAuth;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** Shared inputs of the node status tests: a machine, a configuration with defaults, images, health, events. */
final class NodeStatusFixtures {
    static final long GI = 1L << 30;
    static final MachineInfo MACHINE = new MachineInfo(4, 8 * GI, "machine-1", "uuid-1", "boot-1", "6.1.0-test",
            "Debian GNU/Linux 12 (bookworm)", 100 * GI);
    static final NodeIdentity IDENTITY = new NodeIdentity("node-a", "node-a", List.of("10.0.0.5"),
            Map.of("role", "edge"), "v1.30.0");

    static KubeletConfiguration config() {
        return KubeletConfigurationDefaults.newDefaulted();
    }

    /** The defaulted configuration, to change before building it. */
    static KubeletConfiguration.Builder configBuilder() {
        return KubeletConfiguration.builder().from(config());
    }

    /** Settable health for the conditions. */
    static final class Health implements NodeHealth {
        volatile List<String> errors = List.of();
        volatile boolean memoryPressure;

        @Override
        public List<String> readinessErrors() {
            return errors;
        }

        @Override
        public boolean memoryPressure() {
            return memoryPressure;
        }
    }

    /** Events as "type reason: message". */
    static final class Events implements EventRecorder {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public void event(ObjectReference involved, String type, String reason, String message) {
            seen.add(involved.getKind() + "/" + involved.getName() + " " + type + " " + reason + ": " + message);
        }
    }

    static final class Images implements ImageService {
        final List<Image> images = new ArrayList<>();

        @Override
        public List<Image> listImages() {
            return List.copyOf(images);
        }

        @Override
        public Optional<Image> imageStatus(String image) {
            return Optional.empty();
        }

        @Override
        public String pullImage(String image, RegistryAuth auth) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void removeImage(String image) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FilesystemUsage imageFsInfo() {
            throw new UnsupportedOperationException();
        }
    }

    static NodeStatusSetters setters(KubeletConfiguration config, Images images, NodeHealth health, Clock clock,
            Events events) {
        return new NodeStatusSetters(IDENTITY, () -> MACHINE, new io.jkubelet.core.runtime.testing.FakeRuntime(clock),
                images, config, health, clock, events);
    }

    /** The setters with the volume manager's volumes in use from {@code volumes}. */
    static NodeStatusSetters setters(KubeletConfiguration config, NodeHealth health, Clock clock, NodeVolumes volumes) {
        return new NodeStatusSetters(IDENTITY, () -> MACHINE, new io.jkubelet.core.runtime.testing.FakeRuntime(clock),
                new Images(), config, health, clock, new Events(), () -> io.jkubelet.core.cm.devicemanager.DeviceCapacity.NONE,
                volumes);
    }

    /** A volume manager's view for the node status: its volumes in use once synced, and what it was told is reported. */
    static final class Volumes implements NodeVolumes {
        volatile boolean synced;
        volatile List<String> inUse = List.of();
        final List<List<String>> reported = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public boolean reconcilerStatesHasBeenSynced() {
            return synced;
        }

        @Override
        public List<String> getVolumesInUse() {
            return inUse;
        }

        @Override
        public void markVolumesAsReportedInUse(List<String> volumesReportedAsInUse) {
            reported.add(List.copyOf(volumesReportedAsInUse));
        }
    }

    private NodeStatusFixtures() {
    }
}
