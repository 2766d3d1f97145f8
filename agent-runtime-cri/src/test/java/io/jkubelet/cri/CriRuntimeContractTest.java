package io.jkubelet.cri;

import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.testing.RuntimeServiceContract;
import io.jkubelet.core.runtime.testing.TestCgroups;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/** The CRI adapter keeps the runtime contract on the real containerd (Debian's 1.6, its CRI plugin). */
@Tag("containerd")
class CriRuntimeContractTest extends RuntimeServiceContract {

    private static CriRuntime runtime;

    @BeforeAll
    static void connect() {
        runtime = CriTestSupport.connect();
    }

    @AfterAll
    static void disconnect() {
        runtime.close();
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
        return CriTestSupport.BUSYBOX;
    }

    /** The test containerd's one runtime (bin/lib/common.sh, jk_containerd_config). */
    @Override
    protected String configuredRuntimeHandler() {
        return "runc";
    }

    @Override
    protected String pauseImage() {
        return CriTestSupport.PAUSE;
    }

    @Override
    protected String cannotRunReason() {
        return "StartError";
    }

    @Override
    protected String imageName(String reference) {
        return "docker.io/" + reference;
    }

    @Override
    protected void removeTestCgroupParent(String parent) throws java.io.IOException {
        TestCgroups.removeTree(parent.split("/")[1]);
    }

    @Override
    protected String createUniqueImage(String reference, String configUser) {
        return CriTestSupport.createUniqueImage(reference, configUser);
    }

    @Override
    protected void tagImage(String existing, String reference) {
        CriTestSupport.tagImage(existing, reference);
    }
}
