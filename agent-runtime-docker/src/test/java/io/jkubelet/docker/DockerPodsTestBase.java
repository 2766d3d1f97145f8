package io.jkubelet.docker;

import com.github.dockerjava.api.DockerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;

import java.io.IOException;

/**
 * The adapter on the real engine, a plain client to look at what it did, and each test's pods scoped to a node name
 * of its own and removed afterwards, so that tests share the engine with other users.
 */
@Tag("docker")
abstract class DockerPodsTestBase {
    static DockerRuntime runtime;
    static DockerClient docker;
    PodFixture pods;

    @BeforeAll
    static void connect() {
        runtime = DockerTestSupport.connect();
        docker = DockerTestSupport.rawClient();
    }

    @AfterAll
    static void disconnect() throws IOException {
        runtime.close();
        docker.close();
    }

    @BeforeEach
    void scope() {
        // The real pod log root, as the kubelet uses it; each test's pod directories are removed afterwards.
        pods = new PodFixture(runtime, "/var/log/pods");
    }

    @AfterEach
    void cleanUp() {
        pods.removeAll();
    }
}
