package io.jkubelet.core.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The layering check sees what a class names in its code, and nothing it only mentions in a comment or a string. */
class PackageLayersTest {

    @TempDir
    Path dir;

    @Test
    void aNameAfterAUrlInAStringIsStillSeenAndNamesInCommentsAndStringsAreNot() throws IOException {
        Path doc = Files.writeString(dir.resolve("doc.md"), """
                ### Floors

                | floor | classes | what |
                |---|---|---|
                | 0 | `Low` | below |
                | 1 | `Flags` | the one checked |
                | 2 | `High`, `Higher` | above |
                """);
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("Low.java"), "class Low {}\n");
        Files.writeString(src.resolve("Higher.java"), "class Higher {}\n");
        Files.writeString(src.resolve("High.java"), "class High {}\n");
        Files.writeString(src.resolve("Flags.java"), """
                /** Not {@link Higher}: a comment's "quote. */
                class Flags {
                    static final String SEE = "See https://kubernetes.io/docs/ for more"; // Higher in a comment
                    Object up = High.class;
                    static final char Q = '"';
                    static final String T = \"""
                        Higher in a text block
                        \""";
                    Low low;
                }
                """);

        assertThat(PackageLayers.fromDoc(doc, "### Floors").violations(src))
                .containsExactly("Flags (floor 1) names High (floor 2)");
    }
}
