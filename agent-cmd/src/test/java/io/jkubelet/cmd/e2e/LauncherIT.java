package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/jkubelet}, the launcher a user runs: its class-data archive never shows through. {@code --version} and
 * {@code --help} do not write it (it would hold their few classes for good); an archive the JVM wrote for another jar
 * (as an agent still running on the old jar writes it after a rebuild) is found stale by the jar's fingerprint and
 * dropped, and the user sees only the agent's own output.
 */
class LauncherIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path ARCHIVE = ROOT.resolve("agent-cmd/target/jkubelet.jsa");
    @TempDir Path dir;

    private static String launch(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(ROOT.resolve("bin/jkubelet").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("bin/jkubelet exits").isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void anArchiveOfAnotherJarIsDroppedWithoutAWord() throws Exception {
        Files.deleteIfExists(ARCHIVE);
        assertThat(launch("--version")).isEqualTo("Kubernetes v1.30.0\n");
        assertThat(ARCHIVE).as("--version writes no archive").doesNotExist();
        String fingerprint = Files.readString(ROOT.resolve("agent-cmd/target/jkubelet.jsa.jar"));

        // What a rebuild under a running agent leaves: the old build's fingerprint, and the archive of its jar
        // (another jar here), written when that agent stopped, after this jar was built.
        Path old = Files.copy(Path.of(Agent.jar()), dir.resolve("old.jar"));
        Process dump = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:ArchiveClassesAtExit=" + ARCHIVE, "-Xlog:cds=off", "-Xlog:cds+dynamic=off", "-jar", old.toString(),
                "--version").redirectErrorStream(true).start();
        dump.getInputStream().readAllBytes();
        assertThat(dump.waitFor(120, TimeUnit.SECONDS)).isTrue();
        Files.writeString(ROOT.resolve("agent-cmd/target/jkubelet.jsa.jar"), "62000000 1764806400 12345\n");

        assertThat(launch("--version")).isEqualTo("Kubernetes v1.30.0\n");
        assertThat(launch("--help")).startsWith("jkubelet - the Kubernetes node agent").doesNotContain("[error]", "[warning]", "cds");
        assertThat(Files.readString(ROOT.resolve("agent-cmd/target/jkubelet.jsa.jar"))).isEqualTo(fingerprint);
        assertThat(ARCHIVE).as("the stale archive is gone").doesNotExist();
    }

    @Test
    void aFileTheJarIsNotBuiltFromDoesNotRebuildIt() throws Exception {
        Path jar = ROOT.resolve("agent-cmd/target/jkubelet.jar");
        launch("--version"); // built now if it was missing
        java.nio.file.attribute.FileTime built = Files.getLastModifiedTime(jar);
        // A test source (the jar holds none) edited after the build: the launcher once walked the whole tree for
        // any .java file, and rebuilt.
        Path testSource = ROOT.resolve("agent-cmd/src/test/java/io/jkubelet/cmd/e2e/LauncherIT.java");
        java.nio.file.attribute.FileTime edited = Files.getLastModifiedTime(testSource);
        Files.setLastModifiedTime(testSource, java.nio.file.attribute.FileTime.from(built.toInstant().plusSeconds(60)));
        try {
            assertThat(launch("--version")).as("no build, no word of one").isEqualTo("Kubernetes v1.30.0\n");
            assertThat(Files.getLastModifiedTime(jar)).isEqualTo(built);
        } finally {
            Files.setLastModifiedTime(testSource, edited);
        }
    }
}
