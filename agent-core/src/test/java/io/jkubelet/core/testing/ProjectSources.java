package io.jkubelet.core.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The project's Java sources, for tests that hold a reviewed list to the code: each file by its class's name. */
public final class ProjectSources {
    private ProjectSources() {
    }

    /**
     * @param root the checkout (the modules' parent)
     * @param sourceDir {@code src/main/java} or {@code src/test/java}
     * @return every module's files under {@code sourceDir}, by simple class name
     */
    public static Map<String, Path> byClassName(Path root, String sourceDir) throws IOException {
        Map<String, Path> sources = new TreeMap<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(p -> Files.isDirectory(p.resolve(sourceDir))).toList()) {
                try (Stream<Path> files = Files.walk(module.resolve(sourceDir))) {
                    files.filter(f -> f.toString().endsWith(".java"))
                            .forEach(f -> sources.put(f.getFileName().toString().replace(".java", ""), f));
                }
            }
        }
        return sources;
    }
}
