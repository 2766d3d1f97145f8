package io.jkubelet.core.runtime.testing;

import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;

import java.time.Clock;
import java.util.List;

/** {@link FakeRuntime} keeps the runtime contract, so core tests written against it hold on Docker too. */
class FakeRuntimeContractTest extends RuntimeServiceContract {

    private static final String BUSYBOX = "jkubelet/busybox:1.0";
    private static final String PAUSE = "jkubelet/pause:3.9";

    private final FakeRuntime fake = new FakeRuntime(Clock.systemUTC());

    FakeRuntimeContractTest() {
        fake.addImage(BUSYBOX);
        fake.addImage(PAUSE);
        fake.addRuntimeHandler("runc");
    }

    @Override
    protected RuntimeService runtime() {
        return fake;
    }

    @Override
    protected ImageService images() {
        return fake;
    }

    @Override
    protected String busyboxImage() {
        return BUSYBOX;
    }

    /** Configured as containerd's runc runtime is (jk_containerd_config). */
    @Override
    protected String configuredRuntimeHandler() {
        return "runc";
    }

    @Override
    protected String pauseImage() {
        return PAUSE;
    }

    @Override
    protected String createUniqueImage(String reference, String configUser) {
        String id = fake.addImage(reference);
        fake.setImageUser(reference, configUser);
        return id;
    }

    @Override
    protected void tagImage(String existing, String reference) {
        fake.tagImage(existing, reference);
    }

    @Override
    protected void scriptCommand(List<String> commandLine, FakeRuntime.Script script) {
        fake.scriptCommand(commandLine, script);
    }
}
