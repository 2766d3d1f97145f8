package io.jkubelet.cri;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The runtime's own sandbox image on the real containerd: its {@code sandbox_image}, from its verbose Status. */
@Tag("containerd")
class CriPinnedImagesTest {

    @Test
    void containerdsSandboxImageIsPinned() {
        try (CriRuntime runtime = CriTestSupport.connect()) {
            // jk_ensure_containerd's config.toml: sandbox_image = "docker.io/jkubelet/pause:3.9".
            assertThat(runtime.pinnedImages()).containsExactly(CriTestSupport.PAUSE);
        }
    }
}
