package io.jkubelet.docker;

import io.jkubelet.docker.engine.DockerEngine;
import io.jkubelet.docker.engine.SystemInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code docker info} says about the engine's host, read once: none of it changes while the engine runs, and
 * {@code docker info} is slow on a busy engine. Thread-safe.
 */
final class DockerHost {
    private static final Logger log = LoggerFactory.getLogger(DockerHost.class);
    /** Docker's driver when it names none (dockershim's {@code defaultCgroupDriver}). */
    static final String DEFAULT_CGROUP_DRIVER = "cgroupfs";

    /**
     * @param cgroupDriver {@code cgroupfs} or {@code systemd}: how Docker names the cgroups it makes
     * @param rootDir Docker's data root, e.g. {@code /var/lib/docker}
     * @param storageDriver e.g. {@code overlay2}
     */
    record Settings(String cgroupDriver, String rootDir, String storageDriver) {}

    private final DockerEngine engine;
    private volatile Settings settings;

    DockerHost(DockerEngine engine) {
        this.engine = engine;
    }

    /** @throws RuntimeException translated by {@link DockerErrors} when Docker does not answer */
    Settings settings() {
        Settings s = settings;
        if (s == null) {
            try {
                SystemInfo info = engine.info();
                String driver = info.cgroupDriver() == null || info.cgroupDriver().isEmpty()
                        ? DEFAULT_CGROUP_DRIVER : info.cgroupDriver();
                s = new Settings(driver, info.dockerRootDir(), info.driver());
            } catch (RuntimeException e) {
                throw DockerErrors.translate("docker info", e);
            }
            settings = s;
        }
        return s;
    }

    /** Docker's data root, or null when Docker does not say (a log link then asks Docker per container). */
    String rootDirIfKnown() {
        try {
            return settings().rootDir();
        } catch (RuntimeException e) {
            log.debug("docker info failed: {}", e.getMessage());
            return null;
        }
    }

    /**
     * Fails when the kubelet names cgroups otherwise than Docker does (dockershim's start-up check).
     *
     * @throws IllegalStateException with dockershim's message when they differ
     */
    void checkCgroupDriver(String kubeletCgroupDriver) {
        String docker = settings().cgroupDriver();
        if (!kubeletCgroupDriver.equals(docker)) {
            throw new IllegalStateException("misconfiguration: kubelet cgroup driver: \"" + kubeletCgroupDriver
                    + "\" is different from docker cgroup driver: \"" + docker + "\"");
        }
    }

    /** Docker's cgroup driver, asked of Docker only when there is a cgroup parent to write in its form. */
    String cgroupDriverFor(String cgroupParent) {
        return cgroupParent == null || cgroupParent.isEmpty() ? DEFAULT_CGROUP_DRIVER : settings().cgroupDriver();
    }
}
