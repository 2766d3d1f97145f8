package io.jkubelet.core.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.fail;

/**
 * A table of a document that a test generates from a file of its own: between the markers
 * {@code <!-- NAME: generated from SOURCE -->} and {@code <!-- end NAME -->} the document must hold exactly what the
 * file says. When it does not, the table to paste is written to {@code target/NAME.md} and the test fails saying so.
 */
public final class GeneratedDocTable {
    private GeneratedDocTable() {
    }

    /**
     * @param doc the document, e.g. {@code docs/operations.md}
     * @param name the table's name in its markers
     * @param source the file the table is generated from, as the begin marker names it
     * @param expected the table as generated
     */
    public static void check(Path doc, String name, String source, String expected) throws IOException {
        String text = Files.readString(doc);
        String begin = "<!-- " + name + ": generated from " + source + " -->\n";
        String end = "<!-- end " + name + " -->";
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        if (from < 0 || to < from || !text.substring(from + begin.length(), to).equals(expected)) {
            Path generated = Path.of("target", name + ".md");
            Files.createDirectories(generated.getParent());
            Files.writeString(generated, begin + expected + end + "\n");
            fail(doc.getFileName() + "'s " + name + " table differs from " + source + "; the table to paste between "
                    + "its markers is in " + generated.toAbsolutePath());
        }
    }
}
