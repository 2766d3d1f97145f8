package io.jkubelet.core.credentialprovider;

import io.jkubelet.core.runtime.RegistryAuth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The node's own registry credentials, found as upstream's default credential provider finds them
 * ({@code ReadDockerConfigFile} in {@code pkg/credentialprovider/config.go}): the first valid {@code config.json}
 * in the kubelet's root directory, the working directory, {@code $HOME/.docker} and {@code /.docker}; only when
 * none is valid, the first valid legacy {@code .dockercfg} in the root directory, the working directory,
 * {@code $HOME} and {@code /}. Files are not merged: the first valid one is the node's. A missing file is passed
 * over quietly; one that exists but cannot be read or parsed is passed over with a warning naming it (upstream
 * says so only at V(4), which leaves an operator guessing why a pull is anonymous).
 */
public final class DockerConfigFiles {
    private static final Logger log = LoggerFactory.getLogger(DockerConfigFiles.class);
    static final String CONFIG_JSON = "config.json";
    static final String DOCKERCFG = ".dockercfg";

    /**
     * Where the files are looked for, in order.
     *
     * @param configJsonDirs directories of {@code config.json}
     * @param dockercfgDirs directories of {@code .dockercfg}
     */
    public record SearchPaths(List<Path> configJsonDirs, List<Path> dockercfgDirs) {
        /** No node credentials. */
        public static final SearchPaths NONE = new SearchPaths(List.of(), List.of());

        public SearchPaths {
            configJsonDirs = List.copyOf(configJsonDirs);
            dockercfgDirs = List.copyOf(dockercfgDirs);
        }

        /**
         * Upstream's paths: the root directory (the kubelet's {@code SetPreferredDockercfgPath(rootDirectory)}), the
         * working directory, the home directory ({@code .docker} below it for {@code config.json}) and {@code /}. A
         * home directory that is not known is left out.
         */
        public static SearchPaths of(Path rootDir, Path workingDir, Optional<Path> home) {
            Path root = Path.of("/");
            List<Path> json = new ArrayList<>(List.of(rootDir, workingDir));
            List<Path> cfg = new ArrayList<>(List.of(rootDir, workingDir));
            home.ifPresent(h -> {
                json.add(h.resolve(".docker"));
                cfg.add(h);
            });
            json.add(root.resolve(".docker"));
            cfg.add(root);
            return new SearchPaths(json, cfg);
        }

        /** This process's paths: its working directory and {@code $HOME}, as Go's {@code os.UserHomeDir}. */
        public static SearchPaths forProcess(Path rootDir) {
            String home = System.getenv("HOME");
            return of(rootDir, Path.of("").toAbsolutePath(),
                    home == null || home.isEmpty() ? Optional.empty() : Optional.of(Path.of(home)));
        }
    }

    private DockerConfigFiles() {}

    /** The credentials of the first valid file, by registry location; empty when there is none. */
    public static Map<String, RegistryAuth> read(SearchPaths paths) {
        for (Path dir : paths.configJsonDirs()) {
            Optional<Map<String, RegistryAuth>> found = parse(dir.resolve(CONFIG_JSON), true);
            if (found.isPresent()) {
                return found.get();
            }
        }
        for (Path dir : paths.dockercfgDirs()) {
            Optional<Map<String, RegistryAuth>> found = parse(dir.resolve(DOCKERCFG), false);
            if (found.isPresent()) {
                return found.get();
            }
        }
        return Map.of();
    }

    private static Optional<Map<String, RegistryAuth>> parse(Path file, boolean configJson) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file.toAbsolutePath());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            log.warn("Cannot read registry credentials file {}, passing over it: {}", file, e.toString());
            return Optional.empty();
        }
        try {
            Map<String, RegistryAuth> creds = configJson ? DockerKeyring.parseDockerConfigJson(bytes)
                    : DockerKeyring.parseDockercfg(bytes);
            log.debug("Node registry credentials from {}: {}", file, creds.keySet());
            return Optional.of(creds);
        } catch (IOException e) {
            log.warn("Registry credentials file {} is not a valid {}, passing over it: {}", file,
                    configJson ? "docker config.json ({\"auths\": {...}})" : ".dockercfg", e.getMessage());
            return Optional.empty();
        }
    }
}
