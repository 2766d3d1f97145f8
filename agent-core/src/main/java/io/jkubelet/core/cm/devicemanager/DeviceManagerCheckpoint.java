package io.jkubelet.core.cm.devicemanager;

import io.jkubelet.core.checkpointmanager.CheckpointException;
import io.jkubelet.core.checkpointmanager.CheckpointManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The device manager's checkpoint {@code kubelet_internal_checkpoint} in the registration socket's directory (upstream
 * {@code writeCheckpoint} and {@code readCheckpoint}): the containers' devices and each resource's healthy devices, so
 * that assignments survive an agent restart. None without a registration server.
 */
final class DeviceManagerCheckpoint {
    private static final Logger log = LoggerFactory.getLogger(DeviceManagerCheckpoint.class);

    private final DeviceManager m;
    private final CheckpointManager checkpoints;
    /**
     * Held from a write's snapshot to its rename, so that the last write holds the newest state (two plugins' updates
     * on two gRPC threads would otherwise race), and so that {@link #close} waits for the write in flight. Taken before
     * the manager's lock, never while holding it.
     */
    private final Object writing = new Object();
    private boolean closed;

    DeviceManagerCheckpoint(DeviceManager m, CheckpointManager checkpoints) {
        this.m = m;
        this.checkpoints = checkpoints;
    }

    /** Upstream {@code writeCheckpoint}: the containers' devices and each resource's healthy devices. */
    void write() throws IOException {
        if (checkpoints == null) {
            return;
        }
        synchronized (writing) {
            if (!closed) {
                writeNewest();
            }
        }
    }

    private void writeNewest() throws IOException {
        DeviceCheckpoint cp;
        m.lock.lock();
        try {
            Map<String, List<String>> registered = new HashMap<>();
            m.healthyDevices.forEach((r, ids) -> registered.put(r, new ArrayList<>(new TreeSet<>(ids))));
            cp = new DeviceCheckpoint(m.podDevices.toCheckpointData(), registered);
        } finally {
            m.lock.unlock();
        }
        try {
            checkpoints.create(DeviceCheckpoint.KEY, cp.marshal());
        } catch (IOException e) {
            throw new IOException("failed to write checkpoint file \"" + DeviceCheckpoint.KEY + "\": " + e.getMessage(), e);
        }
    }

    /**
     * Once the manager stopped, a plugin's update still arriving on a gRPC thread writes nothing: the directory is left
     * as the stop found it, and a write in flight has ended when this returns.
     */
    void close() {
        synchronized (writing) {
            closed = true;
        }
    }

    /** A manager started again (after a stop) writes again. */
    void open() {
        synchronized (writing) {
            closed = false;
        }
    }

    void writeLogged() {
        try {
            write();
        } catch (IOException e) {
            log.error("Writing checkpoint encountered: {}", e.getMessage());
        }
    }

    /**
     * Upstream {@code readCheckpoint}: the containers' devices come back, and each resource registered before is known
     * with no devices (its capacity 0) and a stopped endpoint, until its plugin registers again.
     */
    void read() throws CheckpointException, IOException {
        if (checkpoints == null) {
            return;
        }
        DeviceCheckpoint cp;
        try {
            cp = DeviceCheckpoint.unmarshal(checkpoints.read(DeviceCheckpoint.KEY));
        } catch (CheckpointException.NotFound e) {
            log.info("Failed to read data from checkpoint {}: {}", DeviceCheckpoint.KEY, e.getMessage());
            return;
        }
        m.lock.lock();
        try {
            m.podDevices.fromCheckpointData(cp.podDeviceEntries());
            m.allocatedDevices = m.podDevices.devices();
            if (cp.registeredDevices() != null) {
                for (String resource : cp.registeredDevices().keySet()) {
                    m.healthyDevices.put(resource, new HashSet<>());
                    m.unhealthyDevices.put(resource, new HashSet<>());
                    m.endpoints.put(resource, Endpoint.stopped(resource, m.clock.instant()));
                }
            }
        } finally {
            m.lock.unlock();
        }
        log.debug("Read data from checkpoint file {}", DeviceCheckpoint.KEY);
    }
}
