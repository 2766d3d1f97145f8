package io.jkubelet.cmd;

import io.jkubelet.core.testing.PackageLayers;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cmd package's classes name only those below them, as docs/architecture.md draws its floors: the command line
 * (flags, the precedence pipeline, the picocli adapter) below the start-up; no two classes can name each other.
 */
class CmdPackageLayersTest {
    @Test
    void eachClassNamesOnlyClassesOnLowerFloors() {
        PackageLayers layers = PackageLayers.fromDoc(Path.of("../docs/architecture.md"), "### The floors of `cmd`");
        assertThat(layers.violations(Path.of("src/main/java/io/jkubelet/cmd"))).isEmpty();
    }
}
