package io.jkubelet.core.apis.config;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Whatever bytes the {@code --config} file holds, loading it gives a configuration (then validated) or a
 * {@link KubeletConfigLoadException} naming the file, and nothing else. Runs its corpus
 * ({@code KubeletConfigFuzzTestInputs/}) as a regression test; with {@code JAZZER_FUZZ=1} it fuzzes.
 */
class KubeletConfigFuzzTest {
    private static Path file;

    @BeforeAll
    static void aFileToLoad() throws IOException {
        file = Files.createTempFile("jk-fuzz-config", ".yaml");
    }

    @AfterAll
    static void removeIt() throws IOException {
        Files.deleteIfExists(file);
    }

    @FuzzTest(maxDuration = "20s")
    void loadingAnyBytesEndsInAConfigurationOrAnError(byte[] data) throws IOException {
        Files.write(file, data);
        try {
            KubeletConfigurationValidator.validate(KubeletConfigFile.load(file));
        } catch (KubeletConfigLoadException expected) {
            // What an operator sees for a bad file.
        }
    }
}
