package io.jkubelet.core.credentialprovider.plugin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Credential provider plugins as small shell scripts, written by a test into its bin dir. */
final class PluginScripts {
    static final String V1 = "credentialprovider.kubelet.k8s.io/v1";
    static final String V1BETA1 = "credentialprovider.kubelet.k8s.io/v1beta1";

    private PluginScripts() {}

    /** An executable {@code /bin/sh} script {@code binDir/name} running {@code body}. */
    static Path script(Path binDir, String name, String body) throws IOException {
        Path file = binDir.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /**
     * A plugin that counts its runs ({@link #runs}), keeps its last request ({@link #request}) and prints
     * {@code response}.
     */
    static Path answering(Path binDir, String name, String response) throws IOException {
        return script(binDir, name, "echo run >> '" + binDir.resolve(name + ".runs") + "'\n"
                + "cat > '" + binDir.resolve(name + ".request") + "'\n"
                + "cat <<'RESPONSE'\n" + response + "\nRESPONSE");
    }

    /** How often the plugin {@code name} of {@link #answering} ran. */
    static int runs(Path binDir, String name) throws IOException {
        Path runs = binDir.resolve(name + ".runs");
        return Files.exists(runs) ? Files.readAllLines(runs).size() : 0;
    }

    /** The last request the plugin {@code name} of {@link #answering} read on its stdin. */
    static String request(Path binDir, String name) throws IOException {
        return Files.readString(binDir.resolve(name + ".request"));
    }

    /** A response: {@code cacheDuration} null leaves it out; {@code auth} is location, user, password, location, ... */
    static String response(String apiVersion, String cacheKeyType, String cacheDuration, String... auth) {
        StringBuilder auths = new StringBuilder();
        for (int i = 0; i < auth.length; i += 3) {
            if (!auths.isEmpty()) {
                auths.append(',');
            }
            auths.append('"').append(auth[i]).append("\":{\"username\":\"").append(auth[i + 1])
                    .append("\",\"password\":\"").append(auth[i + 2]).append("\"}");
        }
        return "{\"kind\":\"CredentialProviderResponse\",\"apiVersion\":\"" + apiVersion + "\",\"cacheKeyType\":\""
                + cacheKeyType + "\"" + (cacheDuration == null ? "" : ",\"cacheDuration\":\"" + cacheDuration + "\"")
                + ",\"auth\":{" + auths + "}}";
    }
}
