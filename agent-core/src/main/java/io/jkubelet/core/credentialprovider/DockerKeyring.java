package io.jkubelet.core.credentialprovider;

import io.jkubelet.core.config.validation.FieldError;
import io.jkubelet.core.config.validation.ImageReference;
import io.jkubelet.core.runtime.RegistryAuth;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registry credentials by registry location, matched against images as upstream's {@code BasicDockerKeyring}:
 * a location {@code host[:port][/path]} (scheme and a {@code /v1/} or {@code /v2/} path dropped) matches an image
 * whose registry host matches it part by part ({@code *} globs allowed, e.g. {@code *.example.com}), whose port is
 * the same, and whose repository starts with its path. More specific locations come first. Images on Docker Hub
 * also get the credentials of {@code index.docker.io} ({@code https://index.docker.io/v1/}). A keyring may be the
 * {@link #union union} of two, as upstream's {@code UnionDockerKeyring}. Immutable.
 */
public final class DockerKeyring {
    private static final Logger log = LoggerFactory.getLogger(DockerKeyring.class);
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

    /**
     * This keyring with {@code entries} added after what it has. A location that is no URL is left out with a
     * warning, as upstream's {@code BasicDockerKeyring.Add} does.
     */
    public DockerKeyring with(Map<String, RegistryAuth> entries) {
        DockerKeyring k = new DockerKeyring(next);
        creds.forEach((loc, l) -> k.creds.put(loc, new ArrayList<>(l)));
        entries.forEach((loc, auth) -> {
            try {
                k.creds.computeIfAbsent(key(loc), x -> new ArrayList<>()).add(auth);
            } catch (SchemelessUrl.InvalidUrlException e) {
                log.warn("Entry {} in dockercfg invalid ({}), ignoring", FieldError.quote(loc), e.getMessage());
            }
        });
        return k;
    }

    /**
     * A location as upstream keys it: read as a URL ({@code https://} added when it has no scheme), its host and
     * path, with a {@code /v1/} or {@code /v2/} path prefix and a bare {@code /} dropped.
     */
    static String key(String location) throws SchemelessUrl.InvalidUrlException {
        boolean hasScheme = location.startsWith("https://") || location.startsWith("http://");
        SchemelessUrl url = SchemelessUrl.parseUrl(hasScheme ? location : "https://" + location);
        String path = url.path();
        if (path.startsWith("/v2/") || path.startsWith("/v1/")) {
            path = path.substring(3);
        }
        return path.isEmpty() || path.equals("/") ? url.host() : url.host() + path;
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
        String repo = repoToPull(image);
        if (repo == null) {
            return List.of();
        }
        List<RegistryAuth> out = new ArrayList<>();
        creds.forEach((k, l) -> {
            if (UrlGlob.matches(k, repo)) {
                out.addAll(l);
            }
        });
        if (out.isEmpty() && isDefaultRegistryMatch(repo) && creds.containsKey(DEFAULT_REGISTRY_HOST)) {
            out.addAll(creds.get(DEFAULT_REGISTRY_HOST));
        }
        return out;
    }

    /**
     * The repository an image is looked up by, as upstream's {@code parsers.ParseImageName} gives it
     * ({@code busybox:1.36} is {@code docker.io/library/busybox}); null when the name cannot be read.
     */
    static String repoToPull(String image) {
        try {
            ImageReference ref = ImageReference.parseNormalized(image);
            return ref.domain() + "/" + ref.path();
        } catch (IllegalArgumentException e) {
            return null;
        }
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
}
