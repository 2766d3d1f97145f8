package io.jkubelet.core.volume.csi;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CSI drivers registered on this node (upstream csi's {@code DriversStore}), by name: where each one's Node service
 * listens and the highest CSI version it speaks. Thread-safe.
 */
public final class CsiDrivers {
    /** A registered driver: its service socket and the highest version of the spec it speaks. */
    public record Driver(String endpoint, CsiVersion highestSupportedVersion) {}

    private final Map<String, Driver> drivers = new ConcurrentHashMap<>();

    public Optional<Driver> get(String name) {
        return Optional.ofNullable(drivers.get(name));
    }

    void set(String name, Driver driver) {
        drivers.put(name, driver);
    }

    void delete(String name) {
        drivers.remove(name);
    }
}
