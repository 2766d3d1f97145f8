package io.jkubelet.cmd.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;

/**
 * Images of the tests' own in the local registry without Docker: busybox's layer under a config of their own (a
 * label), so that each has an id no other image shares and removing it by id removes nothing else. Spoken to as
 * {@code docker push} does, through the registry's HTTP API (blob mounted from {@code jkubelet/busybox}, config
 * uploaded, manifest put).
 */
final class RegistryImages {
    private static final String SOURCE = "jkubelet/busybox";
    private static final String MANIFEST_V2 = "application/vnd.docker.distribution.manifest.v2+json";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private RegistryImages() {}

    /**
     * Pushes {@code <registry>/<repository>:<tag>}: busybox with the label {@code io.jkubelet.test=<label>}.
     *
     * @return the image's id as the CRI names it (the digest of its config)
     */
    static String pushBusyboxVariant(String registry, String repository, String tag, String label) throws Exception {
        String base = "http://" + registry + "/v2/";
        JsonNode manifest = JSON.readTree(send(HttpRequest.newBuilder(URI.create(base + SOURCE + "/manifests/1.0"))
                .header("Accept", MANIFEST_V2).GET(), 200));
        ObjectNode config = (ObjectNode) JSON.readTree(send(HttpRequest.newBuilder(
                URI.create(base + SOURCE + "/blobs/" + manifest.at("/config/digest").asText())).GET(), 200));
        ((ObjectNode) config.get("config")).putObject("Labels").put("io.jkubelet.test", label);
        byte[] configBytes = JSON.writeValueAsBytes(config);
        String configDigest = "sha256:" + sha256(configBytes);

        for (JsonNode layer : manifest.get("layers")) {
            send(HttpRequest.newBuilder(URI.create(base + repository + "/blobs/uploads/?mount="
                    + layer.get("digest").asText() + "&from=" + SOURCE)).POST(HttpRequest.BodyPublishers.noBody()), 201);
        }
        HttpResponse<byte[]> upload = HTTP.send(HttpRequest.newBuilder(URI.create(base + repository + "/blobs/uploads/"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());
        String location = upload.headers().firstValue("Location").orElseThrow(() -> new IOException(
                "the registry " + registry + " gave no upload location (" + upload.statusCode() + ")"));
        URI put = URI.create(base).resolve(location);
        put = URI.create(put + (put.getQuery() == null ? "?" : "&") + "digest=" + configDigest);
        send(HttpRequest.newBuilder(put).header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(configBytes)), 201);

        ObjectNode ours = manifest.deepCopy();
        ((ObjectNode) ours.get("config")).put("digest", configDigest).put("size", configBytes.length);
        send(HttpRequest.newBuilder(URI.create(base + repository + "/manifests/" + tag))
                .header("Content-Type", MANIFEST_V2)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(ours))), 201);
        return configDigest;
    }

    private static byte[] send(HttpRequest.Builder request, int expected) throws Exception {
        HttpResponse<byte[]> r = HTTP.send(request.timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != expected) {
            throw new IOException(r.request().method() + " " + r.request().uri() + ": " + r.statusCode() + " "
                    + new String(r.body(), java.nio.charset.StandardCharsets.UTF_8));
        }
        return r.body();
    }

    private static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
