package io.jkubelet.cmd.e2e;

import org.junit.jupiter.api.Tag;

import java.util.List;

/** One agent per test, on the real Docker engine, with its containers removed afterwards. */
@Tag("docker")
abstract class AgentTestBase extends AgentOnRuntimeBase {
    @Override
    List<String> runtimeArgs() {
        return List.of();
    }

    @Override
    void removeFromRuntime(String nodeName) {
        Docker.removeAll(nodeName);
    }
}
