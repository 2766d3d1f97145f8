package io.jkubelet.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;

import java.time.Clock;

/** Shared set-up of the tests that need the Docker engine on this machine. */
final class DockerTestSupport {
    static final String BUSYBOX = "jkubelet/busybox:1.0";
    static final String PAUSE = "jkubelet/pause:3.9";

    private DockerTestSupport() {}

    static DockerRuntime connect() {
        return DockerRuntimeFactory.connect(DockerRuntimeFactory.DEFAULT_ENDPOINT,
                DockerRuntimeOptions.DEFAULTS, Clock.systemUTC());
    }

    /** A plain docker-java client, for checking what the adapter did the way a node tool would see it. */
    static DockerClient rawClient() {
        DockerClientConfig config = DefaultDockerClientConfig.createDefaultConfigBuilder()
                .withDockerHost(DockerRuntimeFactory.DEFAULT_ENDPOINT).build();
        return DockerClientImpl.getInstance(config,
                new ApacheDockerHttpClient.Builder().dockerHost(config.getDockerHost()).build());
    }

    /**
     * Makes an image no one else uses: a commit of a throw-away busybox container (its own id, busybox's
     * layers), tagged {@code reference}. Removing it by id cannot touch busybox.
     */
    static String createUniqueImage(DockerClient docker, String reference) {
        return createUniqueImage(docker, reference, "");
    }

    /** As {@link #createUniqueImage(DockerClient, String)}, its configuration naming {@code user} (empty: none). */
    static String createUniqueImage(DockerClient docker, String reference, String user) {
        int colon = reference.lastIndexOf(':');
        String repository = reference.substring(0, colon);
        String tag = reference.substring(colon + 1);
        String container = docker.createContainerCmd(BUSYBOX).withCmd("true")
                .withLabels(java.util.Map.of("io.jkubelet.test", "image-source")).exec().getId();
        try {
            return docker.commitCmd(container).withRepository(repository).withTag(tag).withUser(user)
                    .withLabels(java.util.Map.of("io.jkubelet.test", reference)).exec();
        } finally {
            docker.removeContainerCmd(container).withForce(true).exec();
        }
    }

    /**
     * Removes the cgroup tree {@code /<top>} that the engine's runc made for a test's cgroup parent, from every
     * hierarchy under {@code /sys/fs/cgroup}, leaves first (a cgroup directory goes only by rmdir). Only the test's
     * own uniquely named tree is touched.
     */
    static void removeCgroupTree(String top) throws java.io.IOException {
        io.jkubelet.core.runtime.testing.TestCgroups.removeTree(top);
    }
}
