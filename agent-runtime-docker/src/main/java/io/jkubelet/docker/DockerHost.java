package io.jkubelet.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Info;

/**
 * What {@code docker info} says about the engine's host, read once: none of it changes while the engine runs, and
 * {@code docker info} is slow on a busy engine. Thread-safe.
 */
final class DockerHost {
    /** Docker's driver when it names none (dockershim's {@code defaultCgroupDriver}). */
    static final String DEFAULT_CGROUP_DRIVER = "cgroupfs";

    /**
     * @param cgroupDriver {@code cgroupfs} or {@code systemd}: how Docker names the cgroups it makes
     * @param rootDir Docker's data root, e.g. {@code /var/lib/docker}
     * @param storageDriver e.g. {@code overlay2}
     */
    record Settings(String cgroupDriver, String rootDir, String storageDriver) {}

    private final DockerClient requests;
    private volatile Settings settings;

    DockerHost(DockerClient requests) {
        this.requests = requests;
    }

    /** @throws RuntimeException translated by {@link DockerErrors} when Docker does not answer */
    Settings settings() {
        Settings s = settings;
        if (s == null) {
            try {
                Info info = requests.infoCmd().exec();
                String driver = info.getCGroupDriver() == null || info.getCGroupDriver().isEmpty()
                        ? DEFAULT_CGROUP_DRIVER : info.getCGroupDriver();
                s = new Settings(driver, info.getDockerRootDir(), info.getDriver());
            } catch (RuntimeException e) {
                throw DockerErrors.translate("docker info", e);
            }
            settings = s;
        }
        return s;
    }

    /** Docker's cgroup driver, asked of Docker only when there is a cgroup parent to write in its form. */
    String cgroupDriverFor(String cgroupParent) {
        return cgroupParent == null || cgroupParent.isEmpty() ? DEFAULT_CGROUP_DRIVER : settings().cgroupDriver();
    }
}
