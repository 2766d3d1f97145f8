package io.jkubelet.core.kubelet;

import io.jkubelet.core.testing.PackageLayers;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The kubelet package's classes name only those below them, as docs/architecture.md draws its floors. */
class KubeletPackageLayersTest {
    @Test
    void eachClassNamesOnlyClassesOnLowerFloors() {
        PackageLayers layers = PackageLayers.fromDoc(Path.of("../docs/architecture.md"), "### The floors of `core/kubelet`");
        assertThat(layers.violations(Path.of("src/main/java/io/jkubelet/core/kubelet"))).isEmpty();
    }
}
