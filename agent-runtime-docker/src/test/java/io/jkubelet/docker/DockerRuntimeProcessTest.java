package io.jkubelet.docker;

import io.jkubelet.core.runtime.RuntimeProcess;
import io.jkubelet.docker.engine.ScriptedDaemon;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The Docker adapter names dockerd as its runtime's process, as dockershim did. */
class DockerRuntimeProcessTest {

    @Test
    void theRuntimesProcessIsDockerdByItsPidFileOrItsName() throws Exception {
        try (ScriptedDaemon daemon = ScriptedDaemon.unix(request -> ScriptedDaemon.PING, true);
             DockerRuntime runtime = DockerRuntimeFactory.connect(daemon.endpoint())) {
            assertThat(runtime.runtimeProcess())
                    .isEqualTo(RuntimeProcess.withPidFile("dockerd", Path.of("/var/run/docker.pid")));
        }
    }
}
