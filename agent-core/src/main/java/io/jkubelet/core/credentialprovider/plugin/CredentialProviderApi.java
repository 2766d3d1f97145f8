package io.jkubelet.core.credentialprovider.plugin;

import io.jkubelet.core.credentialprovider.plugin.CredentialProviderResponse.AuthConfig;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The exec protocol between the kubelet and a plugin ({@code credentialprovider.kubelet.k8s.io} {@code v1},
 * {@code v1beta1}, {@code v1alpha1}, which v1.30 speaks alike): a {@code CredentialProviderRequest} in JSON on the
 * plugin's stdin, a {@code CredentialProviderResponse} in JSON on its stdout whose {@code apiVersion} must be the one
 * the configuration gave. Errors are upstream's {@code execPlugin}'s. Stateless.
 */
final class CredentialProviderApi {
    static final String GROUP = "credentialprovider.kubelet.k8s.io";
    /** The versions a provider's {@code apiVersion} may name, sorted as upstream lists them in its error. */
    static final List<String> VERSIONS = List.of(GROUP + "/v1", GROUP + "/v1alpha1", GROUP + "/v1beta1");
    static final String REQUEST = "CredentialProviderRequest";
    static final String RESPONSE = "CredentialProviderResponse";
    static final Set<String> KINDS = Set.of(REQUEST, RESPONSE);
    /** Upstream does not wrap the decoder's error: it might quote the credentials. */
    static final String UNDECODABLE = "error decoding credential provider plugin response from stdout";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A response that cannot be used; the message is upstream's. */
    static final class ResponseException extends Exception {
        ResponseException(String message) {
            super(message);
        }
    }

    private CredentialProviderApi() {}

    /** The request for {@code image}, as upstream's JSON encoder writes it (one line). */
    static byte[] request(String apiVersion, String image) {
        ObjectNode request = JSON.createObjectNode();
        request.put("kind", REQUEST);
        request.put("apiVersion", apiVersion);
        request.put("image", image);
        return (JSON.writeValueAsString(request) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Reads the plugin's stdout as upstream's {@code ExecPlugin} does: version first, then the response. */
    static CredentialProviderResponse response(byte[] stdout, String expectedApiVersion) throws ResponseException {
        JsonNode root;
        try {
            if (new String(stdout, StandardCharsets.UTF_8).isBlank()) {
                throw new ResponseException(gvkError("unexpected end of JSON input"));
            }
            root = GoJson.readJson(stdout);
        } catch (JacksonException e) {
            throw new ResponseException(gvkError(e.getOriginalMessage()));
        }
        String apiVersion = groupVersion(root);
        if (!apiVersion.equals(expectedApiVersion)) {
            throw new ResponseException("apiVersion from credential plugin response did not match expected apiVersion:"
                    + expectedApiVersion + ", actual apiVersion:" + apiVersion);
        }
        try {
            return decode(root);
        } catch (GoJson.DecodeException e) {
            throw new ResponseException(UNDECODABLE);
        }
    }

    private static String gvkError(String jsonError) {
        return "error reading GVK from response: couldn't get version/kind; json parse error: " + jsonError;
    }

    /** {@code apiVersion} as {@code schema.ParseGroupVersion} gives it back: {@code ""} when absent. */
    private static String groupVersion(JsonNode root) throws ResponseException {
        JsonNode value = root.isObject() ? root.get("apiVersion") : null;
        if (!root.isObject() && !root.isNull()) {
            throw new ResponseException(gvkError("json: cannot unmarshal " + GoJson.typeName(root)
                    + " into Go value of type struct { APIVersion string; Kind string }"));
        }
        if (GoJson.absent(value)) {
            return "";
        }
        if (!value.isString()) {
            throw new ResponseException(gvkError("json: cannot unmarshal " + GoJson.typeName(value)
                    + " into Go struct field .apiVersion of type string"));
        }
        String gv = value.asString();
        if (gv.chars().filter(c -> c == '/').count() > 1) {
            throw new ResponseException("error reading GVK from response: unexpected GroupVersion string: " + gv);
        }
        return gv;
    }

    private static CredentialProviderResponse decode(JsonNode root) throws GoJson.DecodeException {
        String kind = GoJson.string(root.get("kind"), RESPONSE, "kind");
        if (!kind.equals(RESPONSE)) {
            throw new GoJson.DecodeException("unexpected kind " + kind);
        }
        Map<String, AuthConfig> auth = new LinkedHashMap<>();
        JsonNode auths = GoJson.object(root.get("auth"), RESPONSE, "auth", "map[string]AuthConfig");
        if (auths != null) {
            for (var e : auths.properties()) {
                JsonNode entry = GoJson.object(e.getValue(), RESPONSE, "auth", "AuthConfig");
                auth.put(e.getKey(), entry == null ? new AuthConfig("", "")
                        : new AuthConfig(GoJson.string(entry.get("username"), "AuthConfig", "auth.username"),
                                GoJson.string(entry.get("password"), "AuthConfig", "auth.password")));
            }
        }
        Duration cacheDuration = GoJson.duration(root.get("cacheDuration"));
        return new CredentialProviderResponse(GoJson.string(root.get("cacheKeyType"), RESPONSE, "cacheKeyType"),
                cacheDuration, auth);
    }
}
