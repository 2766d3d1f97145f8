package io.jkubelet.cmd.e2e;

import org.junit.jupiter.api.BeforeAll;

/** {@link RunAsNonRootCases} on Docker, the images made locally with {@code docker commit --change 'USER ...'}. */
class RunAsNonRootIT extends RunAsNonRootCases {
    @BeforeAll
    static void images() {
        UserImages.ensureOnDocker();
    }

    @Override
    String prefix() {
        return "nonroot-";
    }
}
