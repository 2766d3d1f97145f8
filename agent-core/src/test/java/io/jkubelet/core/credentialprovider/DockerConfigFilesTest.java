package io.jkubelet.core.credentialprovider;

import io.jkubelet.core.runtime.RegistryAuth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Where the node's credentials are found and which file wins, on directories of a test's own. */
class DockerConfigFilesTest {
    @TempDir Path tmp;

    private Path root;
    private Path work;
    private Path home;
    private Path slash;

    private DockerConfigFiles.SearchPaths paths() throws IOException {
        root = Files.createDirectories(tmp.resolve("var/lib/kubelet"));
        work = Files.createDirectories(tmp.resolve("work"));
        home = Files.createDirectories(tmp.resolve("root"));
        slash = Files.createDirectories(tmp.resolve("slash"));
        // As SearchPaths.of lays them out, with a stand-in for the file system's root.
        return new DockerConfigFiles.SearchPaths(
                List.of(root, work, home.resolve(".docker"), slash.resolve(".docker")), List.of(root, work, home, slash));
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static void configJson(Path dir, String registry, String user) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("config.json"),
                "{\"auths\":{\"" + registry + "\":{\"auth\":\"" + b64(user + ":pw") + "\"}}}");
    }

    private static void dockercfg(Path dir, String registry, String user) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(".dockercfg"),
                "{\"" + registry + "\":{\"username\":\"" + user + "\",\"password\":\"pw\"}}");
    }

    private static String users(Map<String, RegistryAuth> creds) {
        return String.join(",", creds.values().stream().map(RegistryAuth::username).sorted().toList());
    }

    @Test
    void upstreamsSearchPathsAreTheRootDirTheWorkingDirHomeAndSlash() {
        var p = DockerConfigFiles.SearchPaths.of(Path.of("/var/lib/kubelet"), Path.of("/opt/run"), Optional.of(Path.of("/root")));

        assertThat(p.configJsonDirs()).containsExactly(Path.of("/var/lib/kubelet"), Path.of("/opt/run"),
                Path.of("/root/.docker"), Path.of("/.docker"));
        // The legacy file is looked for in $HOME itself, not in $HOME/.docker.
        assertThat(p.dockercfgDirs()).containsExactly(Path.of("/var/lib/kubelet"), Path.of("/opt/run"), Path.of("/root"),
                Path.of("/"));
        assertThat(DockerConfigFiles.SearchPaths.of(Path.of("/r"), Path.of("/w"), Optional.empty()).configJsonDirs())
                .containsExactly(Path.of("/r"), Path.of("/w"), Path.of("/.docker"));
    }

    @Test
    void theFirstConfigJsonWinsAndFilesAreNotMerged() throws IOException {
        var paths = paths();
        configJson(slash.resolve(".docker"), "slash.io", "slash");
        configJson(home.resolve(".docker"), "home.io", "home");
        configJson(work, "work.io", "work");
        configJson(root, "root.io", "root");

        assertThat(DockerConfigFiles.read(paths)).containsOnlyKeys("root.io");
        Files.delete(root.resolve("config.json"));
        assertThat(users(DockerConfigFiles.read(paths))).isEqualTo("work");
        Files.delete(work.resolve("config.json"));
        assertThat(users(DockerConfigFiles.read(paths))).isEqualTo("home");
        Files.delete(home.resolve(".docker/config.json"));
        assertThat(users(DockerConfigFiles.read(paths))).isEqualTo("slash");
    }

    @Test
    void anyValidConfigJsonComesBeforeTheLegacyDockercfg() throws IOException {
        var paths = paths();
        dockercfg(root, "legacy.io", "legacy");
        configJson(slash.resolve(".docker"), "slash.io", "slash");

        assertThat(users(DockerConfigFiles.read(paths))).isEqualTo("slash");
        Files.delete(slash.resolve(".docker/config.json"));
        assertThat(DockerConfigFiles.read(paths).get("legacy.io")).isEqualTo(new RegistryAuth("legacy", "pw", "legacy.io", null));
    }

    @Test
    void theLegacyDockercfgIsLookedForInHomeAndNotInHomeDocker() throws IOException {
        var paths = paths();
        dockercfg(home.resolve(".docker"), "wrong.io", "wrong");
        dockercfg(slash, "slash.io", "slash");

        assertThat(users(DockerConfigFiles.read(paths))).isEqualTo("slash");
        dockercfg(home, "home.io", "home");
        assertThat(users(DockerConfigFiles.read(paths))).isEqualTo("home");
    }

    @Test
    void aFileThatDoesNotParseIsPassedOverForTheNext() throws IOException {
        var paths = paths();
        Files.writeString(root.resolve("config.json"), "{not json");
        Files.writeString(work.resolve("config.json"), "{\"auths\":{\"r.io\":{\"auth\":\"" + b64("no-colon") + "\"}}}");
        configJson(home.resolve(".docker"), "home.io", "home");

        assertThat(users(DockerConfigFiles.read(paths))).isEqualTo("home");
    }

    @Test
    void aConfigJsonWithoutAuthsIsValidAndEmptyAndEndsTheSearch() throws IOException {
        var paths = paths();
        // docker login with a credential helper leaves such a file; upstream reads it as no credentials.
        Files.writeString(root.resolve("config.json"), "{\"credsStore\":\"desktop\"}");
        configJson(work, "work.io", "work");
        dockercfg(work, "legacy.io", "legacy");

        assertThat(DockerConfigFiles.read(paths)).isEmpty();
    }

    @Test
    void noFileAnywhereIsNoCredentials() throws IOException {
        assertThat(DockerConfigFiles.read(paths())).isEmpty();
        assertThat(DockerConfigFiles.read(DockerConfigFiles.SearchPaths.NONE)).isEmpty();
    }
}
