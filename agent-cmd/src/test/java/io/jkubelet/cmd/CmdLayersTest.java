package io.jkubelet.cmd;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code cmd} package's layers, as docs/architecture.md describes them: each class names only classes of its own
 * layer or of layers below it, and no two classes name each other, directly or round a longer cycle. What a class
 * names is read from its source with comments and string literals left out.
 */
class CmdLayersTest {

    private static final Path SOURCES = Path.of("src/main/java/io/jkubelet/cmd");

    /** Bottom to top. */
    private static final List<List<String>> LAYERS = List.of(
            // 1. values, host facts and checks that read no flag
            List.of("FlagsException", "StartupException", "FlagValues", "ConfigFlagValues", "FlagSpec", "GivenFlags",
                    "KubeletFlags", "KubeletServer", "KubeletInvocation", "KubeletVersion", "ProcessAge", "HostNetwork",
                    "HostInterfaces", "NodeIps", "NodeLabelsValidation", "ReservedCpus", "RuntimeEndpoint",
                    "DockerLogRotation", "ConfigSettings", "UnsupportedSettings", "TerminationSignals"),
            // 2. flag declarations
            List.of("ConfigFlag", "LoggingFlags", "NodeConfigFlags", "ServerConfigFlags", "ConfigFlags",
                    "ConfigFlagDefaults", "KubeletFlagSpecs"),
            // 3. the precedence pipeline
            List.of("BaseConfiguration", "KubeletOptions"),
            // 4. the picocli adapter
            List.of("KubeletCommand"),
            // 5. the parts of start-up
            List.of("StartupStep", "CodecWarmUp", "HostSetup", "RuntimeConnection", "NodeCertificates", "SecureServing",
                    "GracefulNodeShutdown", "ContainerAccess", "KubeletStreaming", "NodeView", "DashboardNode",
                    "DashboardPort", "KubeletServers"),
            // 6. the start-up order
            List.of("KubeletApp"),
            // 7. the program
            List.of("Main"));

    private static final Pattern COMMENTS_AND_STRINGS = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"\"\"(?:.|\\n)*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\\\n])+'",
            Pattern.DOTALL);

    @Test
    void everyClassHasItsLayerAndNamesNoneAboveIt() throws IOException {
        Map<String, Set<String>> names = namesInPackage();
        Map<String, Integer> layer = new TreeMap<>();
        for (int i = 0; i < LAYERS.size(); i++) {
            for (String c : LAYERS.get(i)) {
                layer.put(c, i + 1);
            }
        }
        assertThat(layer.keySet()).as("the layers name exactly the package's classes").isEqualTo(names.keySet());
        List<String> upwards = new ArrayList<>();
        names.forEach((from, to) -> to.stream().filter(t -> layer.get(t) > layer.get(from))
                .forEach(t -> upwards.add(from + " (" + layer.get(from) + ") -> " + t + " (" + layer.get(t) + ")")));
        assertThat(upwards).as("names of a class above").isEmpty();
    }

    @Test
    void noClassNamesOneThatNamesItBack() throws IOException {
        Map<String, Set<String>> names = namesInPackage();
        List<String> cycles = new ArrayList<>();
        for (String start : names.keySet()) {
            reachable(start, names).stream().filter(c -> reachable(c, names).contains(start))
                    .forEach(c -> cycles.add(start + " <-> " + c));
        }
        assertThat(cycles).isEmpty();
    }

    /** The check can fail: a class naming one above it is seen. */
    @Test
    void aNameOfAClassIsSeenButNotInACommentOrAString() {
        Set<String> classes = Set.of("KubeletApp", "Main", "FlagSpec");
        assertThat(namesIn("""
                /** {@link Main} */
                class X { String s = "KubeletApp"; // Main
                  FlagSpec f; Object o = KubeletApp.STOP_DEADLINE; }
                """, classes)).containsExactlyInAnyOrder("FlagSpec", "KubeletApp");
    }

    private static Set<String> reachable(String from, Map<String, Set<String>> names) {
        Set<String> seen = new HashSet<>();
        List<String> todo = new ArrayList<>(names.getOrDefault(from, Set.of()));
        while (!todo.isEmpty()) {
            String c = todo.remove(todo.size() - 1);
            if (seen.add(c)) {
                todo.addAll(names.getOrDefault(c, Set.of()));
            }
        }
        return seen;
    }

    /** By class of the package (its file's name), the other classes of the package it names. */
    private static Map<String, Set<String>> namesInPackage() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(SOURCES)) {
            files = list.filter(p -> p.toString().endsWith(".java") && !p.endsWith("package-info.java")).sorted().toList();
        }
        Set<String> classes = new HashSet<>();
        files.forEach(f -> classes.add(f.getFileName().toString().replace(".java", "")));
        Map<String, Set<String>> names = new TreeMap<>();
        for (Path file : files) {
            String self = file.getFileName().toString().replace(".java", "");
            Set<String> named = namesIn(Files.readString(file), classes);
            named.remove(self);
            names.put(self, named);
        }
        return names;
    }

    private static Set<String> namesIn(String source, Set<String> classes) {
        String code = COMMENTS_AND_STRINGS.matcher(source).replaceAll(" ");
        Set<String> named = new HashSet<>();
        Matcher words = Pattern.compile("\\b[A-Z][A-Za-z0-9]*\\b").matcher(code);
        while (words.find()) {
            if (classes.contains(words.group())) {
                named.add(words.group());
            }
        }
        return named;
    }
}
