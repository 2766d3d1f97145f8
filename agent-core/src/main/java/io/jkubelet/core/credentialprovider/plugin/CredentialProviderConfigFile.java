package io.jkubelet.core.credentialprovider.plugin;

import io.jkubelet.core.credentialprovider.plugin.CredentialProviderConfig.CredentialProvider;
import io.jkubelet.core.credentialprovider.plugin.CredentialProviderConfig.ExecEnvVar;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the file of {@code --image-credential-provider-config} as upstream's {@code readCredentialProviderConfigFile}:
 * YAML or JSON, {@code kind: CredentialProviderConfig} of {@code kubelet.config.k8s.io/v1}, {@code v1beta1} or
 * {@code v1alpha1}, decoded leniently (a field of the wrong type is an error, an unknown one is not: it is returned to
 * be named in a warning, where upstream passes over it without a word). Errors are upstream's, naming the file.
 */
public final class CredentialProviderConfigFile {
    /** The API group of the file. */
    public static final String GROUP = "kubelet.config.k8s.io";
    public static final String KIND = "CredentialProviderConfig";
    /** The versions v1.30 reads, newest first. */
    public static final List<String> VERSIONS = List.of(GROUP + "/v1", GROUP + "/v1beta1", GROUP + "/v1alpha1");
    /** The kinds upstream's decoding scheme knows besides {@value #KIND}: decoding one is a wrong kind, not unknown. */
    private static final Map<String, Set<String>> OTHER_KINDS = Map.of(
            GROUP + "/v1beta1", Set.of("KubeletConfiguration", "SerializedNodeConfigSource"),
            CredentialProviderApi.GROUP + "/v1", CredentialProviderApi.KINDS,
            CredentialProviderApi.GROUP + "/v1beta1", CredentialProviderApi.KINDS,
            CredentialProviderApi.GROUP + "/v1alpha1", CredentialProviderApi.KINDS);
    private static final List<String> CONFIG_FIELDS = List.of("kind", "apiVersion", "providers");
    private static final List<String> PROVIDER_FIELDS = List.of("name", "matchImages", "defaultCacheDuration",
            "apiVersion", "args", "env");
    private static final List<String> ENV_FIELDS = List.of("name", "value");

    /**
     * The file's configuration.
     *
     * @param unknownFields fields the file has that v1.30 does not know ({@code providers[0].tokenAttributes}):
     *     passed over
     */
    public record Decoded(CredentialProviderConfig config, List<String> unknownFields) {}

    private CredentialProviderConfigFile() {}

    /**
     * @throws PluginRegistrationException {@code credential provider config path is empty},
     *     {@code unable to read external registry credential provider configuration from "<file>": ...} or
     *     {@code error decoding config <file>: ...}
     */
    public static Decoded read(String file) throws PluginRegistrationException {
        if (file.isEmpty()) {
            throw new PluginRegistrationException("credential provider config path is empty");
        }
        String content;
        try {
            content = new String(Files.readAllBytes(Path.of(file)), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw unreadable(file, "open " + file + ": no such file or directory");
        } catch (IOException e) {
            throw unreadable(file, Files.isDirectory(Path.of(file)) ? "read " + file + ": is a directory" : e.toString());
        }
        try {
            return decode(content);
        } catch (GoJson.DecodeException e) {
            throw new PluginRegistrationException("error decoding config " + file + ": " + e.getMessage());
        }
    }

    private static PluginRegistrationException unreadable(String file, String why) {
        return new PluginRegistrationException("unable to read external registry credential provider configuration from \""
                + file + "\": " + why);
    }

    /** Upstream's {@code decode}: the universal decoder, then the kind and group checks. */
    static Decoded decode(String content) throws GoJson.DecodeException {
        JsonNode root;
        try {
            root = GoJson.readJsonOrYaml(content);
        } catch (JacksonException e) {
            throw new GoJson.DecodeException(e.getOriginalMessage());
        }
        String apiVersion = typeMeta(root, "apiVersion");
        String kind = typeMeta(root, "kind");
        if (apiVersion.chars().filter(c -> c == '/').count() > 1) {
            throw new GoJson.DecodeException("unexpected GroupVersion string: " + apiVersion);
        }
        if (kind.isEmpty()) {
            throw new GoJson.DecodeException("Object 'Kind' is missing in '" + GoJson.compact(root) + "'");
        }
        if (apiVersion.isEmpty() || apiVersion.endsWith("/")) {
            throw new GoJson.DecodeException("Object 'apiVersion' is missing in '" + GoJson.compact(root) + "'");
        }
        boolean config = kind.equals(KIND) && VERSIONS.contains(apiVersion);
        if (!config && !OTHER_KINDS.getOrDefault(apiVersion, Set.of()).contains(kind)) {
            throw new GoJson.DecodeException("no kind \"" + kind + "\" is registered for version \"" + apiVersion
                    + "\" in scheme \"pkg/credentialprovider/plugin/plugin.go\"");
        }
        if (!config) {
            throw new GoJson.DecodeException("failed to decode \"" + kind + "\" (wrong Kind)");
        }
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        List<String> unknown = new ArrayList<>(GoJson.unknownFields(root, "", CONFIG_FIELDS));
        List<CredentialProvider> providers = new ArrayList<>();
        List<JsonNode> items = GoJson.array(root.get("providers"), KIND, "providers",
                "[]" + version + ".CredentialProvider");
        for (int i = 0; i < items.size(); i++) {
            providers.add(provider(items.get(i), version, "providers[" + i + "]", unknown));
        }
        return new Decoded(new CredentialProviderConfig(providers), unknown);
    }

    /** {@code kind} or {@code apiVersion}, read as upstream's {@code SimpleMetaFactory.Interpret}. */
    private static String typeMeta(JsonNode root, String field) throws GoJson.DecodeException {
        if (!root.isObject() && !root.isNull()) {
            throw new GoJson.DecodeException("couldn't get version/kind; json parse error: json: cannot unmarshal "
                    + GoJson.typeName(root) + " into Go value of type struct { APIVersion string; Kind string }");
        }
        JsonNode value = root.get(field);
        if (GoJson.absent(value)) {
            return "";
        }
        if (!value.isString()) {
            throw new GoJson.DecodeException("couldn't get version/kind; json parse error: json: cannot unmarshal "
                    + GoJson.typeName(value) + " into Go struct field ." + field + " of type string");
        }
        return value.asString();
    }

    private static CredentialProvider provider(JsonNode node, String version, String path, List<String> unknown)
            throws GoJson.DecodeException {
        String struct = "CredentialProvider";
        node = GoJson.object(node, KIND, "providers", version + "." + struct);
        if (node == null) {
            return new CredentialProvider("", List.of(), null, "", List.of(), List.of());
        }
        unknown.addAll(GoJson.unknownFields(node, path, PROVIDER_FIELDS));
        List<ExecEnvVar> env = new ArrayList<>();
        List<JsonNode> envItems = GoJson.array(node.get("env"), struct, "providers.env", "[]" + version + ".ExecEnvVar");
        for (int i = 0; i < envItems.size(); i++) {
            JsonNode e = GoJson.object(envItems.get(i), struct, "providers.env", version + ".ExecEnvVar");
            if (e == null) {
                env.add(new ExecEnvVar("", ""));
                continue;
            }
            unknown.addAll(GoJson.unknownFields(e, path + ".env[" + i + "]", ENV_FIELDS));
            env.add(new ExecEnvVar(GoJson.string(e.get("name"), "ExecEnvVar", "providers.env.name"),
                    GoJson.string(e.get("value"), "ExecEnvVar", "providers.env.value")));
        }
        return new CredentialProvider(
                GoJson.string(node.get("name"), struct, "providers.name"),
                GoJson.strings(node.get("matchImages"), struct, "providers.matchImages"),
                GoJson.duration(node.get("defaultCacheDuration")),
                GoJson.string(node.get("apiVersion"), struct, "providers.apiVersion"),
                GoJson.strings(node.get("args"), struct, "providers.args"),
                env);
    }
}
