package io.jkubelet.core.credentialprovider;

import io.jkubelet.core.config.validation.ImageReference;
import io.jkubelet.core.runtime.RegistryAuth;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Registry credentials by registry location, matched against images as upstream's {@code BasicDockerKeyring}:
 * a location {@code host[:port][/path]} (scheme and a {@code /v1/} or {@code /v2/} path dropped) matches an image
 * whose registry host matches it part by part ({@code *} globs allowed, e.g. {@code *.example.com}), whose port is
 * the same, and whose repository starts with its path. More specific locations come first. Images on Docker Hub
 * also get the credentials of {@code index.docker.io} ({@code https://index.docker.io/v1/}). A keyring may be the
 * {@link #union union} of two, as upstream's {@code UnionDockerKeyring}. Immutable.
 */
public final class DockerKeyring {
    static final String DEFAULT_REGISTRY_HOST = "index.docker.io";
    private static final ObjectMapper JSON =
            JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    /** Locations in reverse lexical order, as upstream: a longer path of one host comes before the host itself. */
    private final TreeMap<String, List<RegistryAuth>> creds = new TreeMap<>(Comparator.reverseOrder());
    /** The keyring whose matches come after this one's; null for none. */
    private final DockerKeyring next;

    public static final DockerKeyring EMPTY = new DockerKeyring(null);

    private DockerKeyring(DockerKeyring next) {
        this.next = next;
    }

    /** The credentials of a {@code .dockercfg} document: {@code {"registry": {"auth": ..., ...}}}. */
    public static Map<String, RegistryAuth> parseDockercfg(byte[] json) throws IOException {
        return entries(document(json));
    }

    /** The credentials of a {@code .dockerconfigjson} document: {@code {"auths": {"registry": {...}}}}. */
    public static Map<String, RegistryAuth> parseDockerConfigJson(byte[] json) throws IOException {
        JsonNode auths = document(json).path("auths");
        if (!auths.isObject()) {
            return Map.of();
        }
        return entries(auths);
    }

    /** The JSON object of a docker config; empty input or another JSON value is no docker config, as for Go's decoder. */
    private static JsonNode document(byte[] json) throws IOException {
        JsonNode doc;
        try {
            doc = JSON.readTree(json);
        } catch (JacksonException e) {
            throw new IOException(e.getMessage(), e);
        }
        if (doc == null || !doc.isObject()) {
            throw new IOException("a docker config must be a JSON object");
        }
        return doc;
    }

    private static Map<String, RegistryAuth> entries(JsonNode cfg) throws IOException {
        if (cfg == null || !cfg.isObject()) {
            throw new IOException("a docker config must be a JSON object of registries");
        }
        Map<String, RegistryAuth> out = new LinkedHashMap<>();
        for (var it = cfg.properties().iterator(); it.hasNext(); ) {
            var e = it.next();
            JsonNode v = e.getValue();
            String user = v.path("username").asString("");
            String pass = v.path("password").asString("");
            String auth = v.path("auth").asString("");
            if (!auth.isEmpty()) {
                // "auth" is base64("user:password") and wins over the separate fields, as in upstream's decode.
                String decoded;
                try {
                    decoded = new String(Base64.getDecoder().decode(auth), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException ex) {
                    throw new IOException("registry " + e.getKey() + ": \"auth\" is not base64: " + ex.getMessage());
                }
                int colon = decoded.indexOf(':');
                if (colon < 0) {
                    throw new IOException("registry " + e.getKey() + ": \"auth\" must be base64 of user:password");
                }
                user = decoded.substring(0, colon);
                pass = decoded.substring(colon + 1);
            }
            String token = v.path("identitytoken").asString("");
            out.put(e.getKey(), new RegistryAuth(user, pass, e.getKey(), token.isEmpty() ? null : token));
        }
        return out;
    }

    /** This keyring with {@code entries} added after what it has. */
    public DockerKeyring with(Map<String, RegistryAuth> entries) {
        DockerKeyring k = new DockerKeyring(next);
        creds.forEach((loc, l) -> k.creds.put(loc, new ArrayList<>(l)));
        entries.forEach((loc, auth) -> k.creds.computeIfAbsent(key(loc), x -> new ArrayList<>()).add(auth));
        return k;
    }

    /** A location as upstream keys it: without scheme, {@code /v1/}/{@code /v2/} and a bare {@code /}. */
    static String key(String location) {
        String v = location.replaceFirst("^https?://", "");
        int slash = v.indexOf('/');
        String host = slash < 0 ? v : v.substring(0, slash);
        String path = slash < 0 ? "" : v.substring(slash);
        if (path.startsWith("/v2/") || path.startsWith("/v1/")) {
            path = path.substring(3);
        }
        return path.isEmpty() || path.equals("/") ? host : host + path;
    }

    /**
     * This keyring's matches first, then {@code then}'s (upstream {@code UnionDockerKeyring}): a pod's pull secrets
     * before the node's own credentials.
     */
    public DockerKeyring union(DockerKeyring then) {
        if (then == EMPTY) {
            return this;
        }
        if (this == EMPTY) {
            return then;
        }
        DockerKeyring k = new DockerKeyring(next == null ? then : next.union(then));
        creds.forEach((loc, l) -> k.creds.put(loc, new ArrayList<>(l)));
        return k;
    }

    /** The credentials to try for an image, in order; empty when none match (pull without credentials). */
    public List<RegistryAuth> lookup(String image) {
        List<RegistryAuth> out = new ArrayList<>(lookupOwn(image));
        if (next != null) {
            out.addAll(next.lookup(image));
        }
        return out;
    }

    private List<RegistryAuth> lookupOwn(String image) {
        String repo;
        try {
            ImageReference ref = ImageReference.parseNormalized(image);
            repo = ref.domain() + "/" + ref.path();
        } catch (IllegalArgumentException e) {
            return List.of();
        }
        List<RegistryAuth> out = new ArrayList<>();
        creds.forEach((k, l) -> {
            if (urlsMatch(k, repo)) {
                out.addAll(l);
            }
        });
        if (out.isEmpty() && isDefaultRegistryMatch(repo) && creds.containsKey(DEFAULT_REGISTRY_HOST)) {
            out.addAll(creds.get(DEFAULT_REGISTRY_HOST));
        }
        return out;
    }

    static boolean isDefaultRegistryMatch(String repo) {
        String[] parts = repo.split("/", 2);
        if (parts[0].isEmpty()) {
            return false;
        }
        if (parts.length == 1 || parts[0].equals("docker.io") || parts[0].equals("index.docker.io")) {
            return true;
        }
        return !parts[0].contains(".") && !parts[0].contains(":");
    }

    /** Upstream {@code URLsMatchStr}: host parts glob-match one to one, same port, path prefix. */
    static boolean urlsMatch(String glob, String target) {
        String[] g = splitHostPath(glob);
        String[] t = splitHostPath(target);
        String[] gHostPort = splitPort(g[0]);
        String[] tHostPort = splitPort(t[0]);
        if (!gHostPort[1].equals(tHostPort[1])) {
            return false;
        }
        String[] gParts = gHostPort[0].split("\\.", -1);
        String[] tParts = tHostPort[0].split("\\.", -1);
        if (gParts.length != tParts.length) {
            return false;
        }
        for (int i = 0; i < gParts.length; i++) {
            if (!FileSystems.getDefault().getPathMatcher("glob:" + gParts[i]).matches(java.nio.file.Path.of(tParts[i]))) {
                return false;
            }
        }
        return t[1].startsWith(g[1]);
    }

    private static String[] splitHostPath(String s) {
        int slash = s.indexOf('/');
        return slash < 0 ? new String[] {s, ""} : new String[] {s.substring(0, slash), s.substring(slash)};
    }

    private static String[] splitPort(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0 || hostPort.endsWith("]")) {
            return new String[] {hostPort, ""};
        }
        return new String[] {hostPort.substring(0, colon), hostPort.substring(colon + 1)};
    }
}
