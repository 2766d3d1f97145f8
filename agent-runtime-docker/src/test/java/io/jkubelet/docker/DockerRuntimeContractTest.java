package io.jkubelet.docker;

import com.github.dockerjava.api.DockerClient;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.testing.RuntimeServiceContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

import java.io.IOException;

/** The Docker adapter keeps the runtime contract on the real engine. */
@Tag("docker")
class DockerRuntimeContractTest extends RuntimeServiceContract {

    private static DockerRuntime runtime;
    private static DockerClient docker;

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

    @Override
    protected RuntimeService runtime() {
        return runtime;
    }

    @Override
    protected ImageService images() {
        return runtime;
    }

    @Override
    protected String busyboxImage() {
        return DockerTestSupport.BUSYBOX;
    }

    /** dockershim's one handler besides the default. */
    @Override
    protected String configuredRuntimeHandler() {
        return DockerRuntime.RUNTIME_NAME;
    }

    @Override
    protected String pauseImage() {
        return DockerTestSupport.PAUSE;
    }

    /** The cgroupfs driver's parent (this engine's); runc makes it below the hierarchies' roots. */
    @Override
    protected void removeTestCgroupParent(String parent) throws java.io.IOException {
        DockerTestSupport.removeCgroupTree(parent.split("/")[1]);
    }

    @Override
    protected String createUniqueImage(String reference, String configUser) {
        return DockerTestSupport.createUniqueImage(docker, reference, configUser);
    }

    @Override
    protected void tagImage(String existing, String reference) {
        int colon = reference.lastIndexOf(':');
        docker.tagImageCmd(existing, reference.substring(0, colon), reference.substring(colon + 1)).exec();
    }
}
