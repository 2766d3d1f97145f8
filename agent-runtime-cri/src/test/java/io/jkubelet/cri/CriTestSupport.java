package io.jkubelet.cri;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The system containerd that {@code bin/lib/common.sh}'s {@code jk_ensure_containerd} starts, and what the tests do
 * to it beside the adapter: images made and tagged with {@code ctr} in the CRI's namespace {@code k8s.io}.
 */
final class CriTestSupport {
    static final String ENDPOINT = "unix:///run/containerd/containerd.sock";
    static final String BUSYBOX = "docker.io/jkubelet/busybox:1.0";
    static final String PAUSE = "docker.io/jkubelet/pause:3.9";

    private CriTestSupport() {}

    static CriRuntime connect() {
        return CriRuntimeFactory.connect(ENDPOINT, null, Duration.ofMinutes(2));
    }

    /**
     * Imports an OCI image of one layer holding a random file, named {@code reference}, and returns its id (the
     * digest of its config, as the CRI names images).
     */
    static String createUniqueImage(String reference) {
        return createUniqueImage(reference, "");
    }

    /** As {@link #createUniqueImage(String)}, its configuration naming {@code user} (empty: none). */
    static String createUniqueImage(String reference, String user) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("jk-cri-image");
            Path layerDir = Files.createDirectories(dir.resolve("layer"));
            Files.writeString(layerDir.resolve("unique"), UUID.randomUUID().toString());
            Path blobs = Files.createDirectories(dir.resolve("oci/blobs/sha256"));
            Path layerTar = dir.resolve("layer.tar");
            run("tar", "-C", layerDir.toString(), "-cf", layerTar.toString(), ".");
            byte[] layer = Files.readAllBytes(layerTar);
            String layerDigest = blob(blobs, layer);
            byte[] config = ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"config\":{\"Env\":[\"PATH=/bin\"],\"User\":\""
                    + user + "\"},"
                    + "\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\"sha256:" + layerDigest + "\"]}}")
                    .getBytes(StandardCharsets.UTF_8);
            String configDigest = blob(blobs, config);
            byte[] manifest = ("{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\","
                    + "\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\"sha256:"
                    + configDigest + "\",\"size\":" + config.length + "},"
                    + "\"layers\":[{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar\",\"digest\":\"sha256:"
                    + layerDigest + "\",\"size\":" + layer.length + "}]}").getBytes(StandardCharsets.UTF_8);
            String manifestDigest = blob(blobs, manifest);
            Files.writeString(dir.resolve("oci/oci-layout"), "{\"imageLayoutVersion\":\"1.0.0\"}");
            Files.writeString(dir.resolve("oci/index.json"), "{\"schemaVersion\":2,\"manifests\":[{\"mediaType\":"
                    + "\"application/vnd.oci.image.manifest.v1+json\",\"digest\":\"sha256:" + manifestDigest
                    + "\",\"size\":" + manifest.length + ",\"annotations\":{\"io.containerd.image.name\":\""
                    + reference + "\"}}]}");
            Path archive = dir.resolve("image.tar");
            run("tar", "-C", dir.resolve("oci").toString(), "-cf", archive.toString(), ".");
            ctr("images", "import", archive.toString());
            return "sha256:" + configDigest;
        } catch (IOException e) {
            throw new IllegalStateException("cannot make image " + reference + ": " + e.getMessage(), e);
        } finally {
            deleteQuietly(dir);
        }
    }

    /** {@code ctr -n k8s.io images tag existing reference}. */
    static void tagImage(String existing, String reference) {
        ctr("images", "tag", existing, reference);
    }

    static void ctr(String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("ctr", "--address", "/run/containerd/containerd.sock",
                "-n", "k8s.io"));
        command.addAll(List.of(args));
        run(command.toArray(String[]::new));
    }

    private static String blob(Path blobs, byte[] content) throws IOException {
        try {
            String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
            Files.write(blobs.resolve(digest), content);
            return digest;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(String.join(" ", command) + " interrupted", e);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // A temporary directory left behind is harmless.
        }
    }
}
