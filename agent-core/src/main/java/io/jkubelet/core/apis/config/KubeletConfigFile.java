package io.jkubelet.core.apis.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * Loads the file given with {@code --config}, as the kubelet does: YAML or JSON; {@code apiVersion}
 * must be {@value KubeletConfiguration#API_VERSION} and {@code kind} {@value KubeletConfiguration#KIND};
 * decoding is strict; relative paths in the file are resolved against the file's directory; then the
 * v1beta1 defaults are applied. Validation is left to the caller, because command-line flags may still
 * override values. Stateless and thread-safe.
 *
 * <p>Strictness differs from upstream in one respect: a v1.30 kubelet falls back to lenient decoding
 * of v1beta1 files and only logs unknown or duplicate fields; jkubelet refuses them.
 */
public final class KubeletConfigFile {

    private KubeletConfigFile() {
    }

    /**
     * Reads, checks, decodes and defaults the configuration in {@code file}.
     *
     * @throws KubeletConfigLoadException naming the file and what is wrong in it
     */
    public static KubeletConfiguration load(Path file) throws KubeletConfigLoadException {
        String content = read(file);
        KubeletConfigCodec.Format format = KubeletConfigCodec.detect(content);
        try {
            checkTypeMeta(file, KubeletConfigCodec.readTree(content, format));
            KubeletConfiguration decoded = KubeletConfigCodec.decode(content, format);
            Path absolute = file.toAbsolutePath();
            Path dir = absolute.getParent() == null ? absolute : absolute.getParent();
            return KubeletConfigurationDefaults.apply(resolveRelativePaths(decoded, dir)).build();
        } catch (KubeletConfigCodec.DecodeException e) {
            throw new KubeletConfigLoadException(file, e.getMessage());
        }
    }

    static String read(Path file) throws KubeletConfigLoadException {
        byte[] bytes;
        try {
            if (Files.isDirectory(file)) {
                throw new KubeletConfigLoadException(file, "read " + file + ": is a directory");
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new KubeletConfigLoadException(file, "open " + file + ": no such file or directory");
        } catch (AccessDeniedException e) {
            throw new KubeletConfigLoadException(file, "open " + file + ": permission denied");
        } catch (IOException e) {
            throw new KubeletConfigLoadException(file, "read " + file + ": " + e.getMessage());
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new KubeletConfigLoadException(file, "the file is not UTF-8 text");
        }
    }

    static void checkTypeMeta(Path file, JsonNode root) throws KubeletConfigLoadException {
        if (root.isMissingNode() || root.isNull()) {
            throw new KubeletConfigLoadException(file, "the file is empty: expected apiVersion: "
                    + KubeletConfiguration.API_VERSION + " and kind: " + KubeletConfiguration.KIND);
        }
        if (!root.isObject()) {
            throw new KubeletConfigLoadException(file, "expected a KubeletConfiguration object, got "
                    + root.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        JsonNode apiVersion = root.get("apiVersion");
        JsonNode kind = root.get("kind");
        if (apiVersion == null || !apiVersion.isString() || apiVersion.asString().isEmpty()) {
            throw new KubeletConfigLoadException(file, "apiVersion is missing: expected apiVersion: "
                    + KubeletConfiguration.API_VERSION);
        }
        if (kind == null || !kind.isString() || kind.asString().isEmpty()) {
            throw new KubeletConfigLoadException(file, "kind is missing: expected kind: "
                    + KubeletConfiguration.KIND);
        }
        if (!apiVersion.asString().equals(KubeletConfiguration.API_VERSION)) {
            throw new KubeletConfigLoadException(file, "apiVersion \"" + apiVersion.asString()
                    + "\" is not supported: expected " + KubeletConfiguration.API_VERSION);
        }
        if (!kind.asString().equals(KubeletConfiguration.KIND)) {
            throw new KubeletConfigLoadException(file, "kind \"" + kind.asString() + "\" is not supported: expected "
                    + KubeletConfiguration.KIND);
        }
    }

    /**
     * {@code config} with its file paths made absolute against {@code root}, as upstream's
     * {@code resolveRelativePaths} does for the fields of {@code KubeletConfigurationPathRefs}; an empty
     * value stays empty (an empty resolvConf disables DNS).
     */
    public static KubeletConfiguration resolveRelativePaths(KubeletConfiguration config, Path root) {
        KubeletConfiguration.Builder resolved = KubeletConfiguration.builder().from(config)
                .staticPodPath(resolve(root, config.staticPodPath()))
                .tlsCertFile(resolve(root, config.tlsCertFile()))
                .tlsPrivateKeyFile(resolve(root, config.tlsPrivateKeyFile()))
                .resolvConf(resolve(root, config.resolvConf()))
                .volumePluginDir(resolve(root, config.volumePluginDir()))
                .podLogsDir(resolve(root, config.podLogsDir()));
        resolved.authenticationBuilder().x509Builder()
                .clientCAFile(resolve(root, config.authentication().x509().clientCAFile()));
        return resolved.build();
    }

    private static String resolve(Path root, String path) {
        if (path == null || path.isEmpty() || Path.of(path).isAbsolute()) {
            return path;
        }
        // Go's filepath.Join also cleans the result.
        return root.resolve(path).normalize().toString();
    }
}
