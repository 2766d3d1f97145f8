package io.jkubelet.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A package's layering as docs/architecture.md describes it, held against the code: the document's table under a
 * given heading names each floor's classes ({@code | 1 | Foo, Bar | what they are |}), lowest floor first; every class
 * of the package must be on a floor, and a class may name only classes of lower floors of its package. What a class
 * names is read from its source without comments and string literals, by simple name, as a maintainer reads it.
 */
public final class PackageLayers {
    private static final Pattern ROW = Pattern.compile("^\\|\\s*(\\d+)\\s*\\|([^|]+)\\|");
    private static final Pattern COMMENTS_AND_LITERALS = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\\\n])+'",
            Pattern.DOTALL);

    private final Map<String, Integer> floors;

    private PackageLayers(Map<String, Integer> floors) {
        this.floors = floors;
    }

    /** The floors of the table that follows {@code heading} (a whole line of the document) up to the next blank line. */
    public static PackageLayers fromDoc(Path doc, String heading) {
        List<String> lines = read(doc);
        int at = lines.indexOf(heading);
        if (at < 0) {
            throw new AssertionError(doc + " has no line \"" + heading + "\"");
        }
        Map<String, Integer> floors = new LinkedHashMap<>();
        for (int i = at + 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() && !floors.isEmpty()) {
                break;
            }
            Matcher m = ROW.matcher(line);
            if (m.find()) {
                for (String name : m.group(2).split(",")) {
                    String n = name.strip().replace("`", "");
                    if (!n.isEmpty() && floors.put(n, Integer.parseInt(m.group(1))) != null) {
                        throw new AssertionError(n + " is on two floors of " + doc);
                    }
                }
            }
        }
        return new PackageLayers(floors);
    }

    /**
     * What is wrong with the package's sources in {@code dir} against these floors: classes on no floor, classes the
     * table names that do not exist, and each reference to a class on the same floor or above.
     */
    public List<String> violations(Path dir) {
        Map<String, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(f -> f.toString().endsWith(".java") && !f.getFileName().toString().equals("package-info.java"))
                    .forEach(f -> sources.put(f.getFileName().toString().replace(".java", ""), code(read(f))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> problems = new ArrayList<>();
        sources.keySet().stream().filter(n -> !floors.containsKey(n)).forEach(n -> problems.add(n + " is on no floor"));
        floors.keySet().stream().filter(n -> !sources.containsKey(n)).forEach(n -> problems.add(n + " does not exist"));
        sources.forEach((name, code) -> {
            Integer floor = floors.get(name);
            for (String other : sources.keySet()) {
                Integer otherFloor = floors.get(other);
                if (other.equals(name) || floor == null || otherFloor == null || otherFloor < floor) {
                    continue;
                }
                if (Pattern.compile("\\b" + other + "\\b").matcher(code).find()) {
                    problems.add(name + " (floor " + floor + ") names " + other + " (floor " + otherFloor + ")");
                }
            }
        });
        return problems;
    }

    /**
     * The source without its comments and string and character literals, read in one pass from the left, so that a
     * {@code //} inside a string (a URL) is no comment and a quote inside a comment opens no string.
     */
    private static String code(List<String> lines) {
        return COMMENTS_AND_LITERALS.matcher(String.join("\n", lines)).replaceAll(" ");
    }

    private static List<String> read(Path p) {
        try {
            return Files.readAllLines(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
