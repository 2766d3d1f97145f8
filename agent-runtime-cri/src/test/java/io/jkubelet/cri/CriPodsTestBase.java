package io.jkubelet.cri;

import io.jkubelet.core.runtime.testing.RuntimePods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;

import java.util.UUID;

/** A connection to the real containerd and pods on a node of the test's own, all removed afterwards. */
@Tag("containerd")
abstract class CriPodsTestBase {
    CriRuntime runtime;
    RuntimePods pods;
    String node;

    @BeforeEach
    void connect() {
        runtime = CriTestSupport.connect();
        node = "cri-test-" + UUID.randomUUID().toString().substring(0, 8);
        pods = new RuntimePods(runtime, node, CriTestSupport.PAUSE);
    }

    @AfterEach
    void cleanUp() {
        RuntimePods.removeAll(runtime, node);
        runtime.close();
    }
}
