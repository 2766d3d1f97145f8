package io.jkubelet.cri;

import io.jkubelet.core.runtime.RuntimeProcess;
import io.jkubelet.core.runtime.RuntimeVersion;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A CRI runtime's daemon is named by what its Version call answers. */
class CriRuntimeProcessTest {

    @Test
    void containerdAndCriOAreFoundByTheirDaemonsNames() {
        assertThat(CriRuntimeProcess.of(new RuntimeVersion("containerd", "1.6.20", "v1")))
                .contains(RuntimeProcess.named("containerd"));
        assertThat(CriRuntimeProcess.of(new RuntimeVersion("cri-o", "1.30.0", "v1")))
                .contains(RuntimeProcess.named("crio"));
    }

    @Test
    void aRuntimeItDoesNotKnowNamesNoProcess() {
        assertThat(CriRuntimeProcess.of(new RuntimeVersion("fake-runtime", "0.1", "v1"))).isEmpty();
    }
}
