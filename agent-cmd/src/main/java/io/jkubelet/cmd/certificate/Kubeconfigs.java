package io.jkubelet.cmd.certificate;

import io.fabric8.kubernetes.client.Config;
import io.jkubelet.core.cluster.KubeClients;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.Optional;

/** Reading the client certificate a kubeconfig names, and writing the kubeconfig bootstrapping leaves behind. */
public final class Kubeconfigs {

    private Kubeconfigs() {
    }

    /**
     * Reads a kubeconfig as fabric8's client would (relative paths against the file's directory).
     *
     * @param what the flag that named it, for messages
     * @throws IOException naming the file and the flag when it cannot be read or has no server
     */
    public static Config load(Path kubeconfig, String what) throws IOException {
        try {
            return KubeClients.load(kubeconfig, what);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * The client certificate and key the kubeconfig holds inline ({@code client-certificate-data}), as a pair;
     * empty when it refers to files or has none.
     */
    static Optional<CertificatePair> inlinePair(Config config, String source) throws IOException {
        if (empty(config.getClientCertData()) || empty(config.getClientKeyData())) {
            return Optional.empty();
        }
        return Optional.of(CertificatePair.parse(decode(config.getClientCertData()) + "\n" + decode(config.getClientKeyData()),
                source));
    }

    /** The client certificate as the kubeconfig gives it (inline or a file); empty when it has none. */
    static Optional<CertificatePair> clientPair(Config config, String source) throws IOException {
        Optional<CertificatePair> inline = inlinePair(config, source);
        if (inline.isPresent()) {
            return inline;
        }
        Optional<Path> cert = clientCertFile(config);
        Optional<Path> key = clientKeyFile(config);
        if (cert.isEmpty() || key.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(CertificateStore.readPair(cert.get(), key.get()));
    }

    static Optional<Path> clientCertFile(Config config) {
        return empty(config.getClientCertFile()) ? Optional.empty() : Optional.of(Path.of(config.getClientCertFile()));
    }

    static Optional<Path> clientKeyFile(Config config) {
        return empty(config.getClientKeyFile()) ? Optional.empty() : Optional.of(Path.of(config.getClientKeyFile()));
    }

    /**
     * Writes {@code kubeconfig} as upstream's {@code writeKubeconfigFromBootstrapping} (mode 0600): the bootstrap
     * kubeconfig's server and CA, and the client certificate and key both at {@code pemPath}.
     */
    static void writeFromBootstrapping(Config bootstrap, Path kubeconfig, Path pemPath) throws IOException {
        String server = bootstrap.getMasterUrl().replaceAll("/+$", "");
        StringBuilder cluster = new StringBuilder();
        if (!empty(bootstrap.getCaCertFile())) {
            cluster.append("    certificate-authority: ").append(quote(bootstrap.getCaCertFile())).append('\n');
        } else if (!empty(bootstrap.getCaCertData())) {
            cluster.append("    certificate-authority-data: ").append(bootstrap.getCaCertData()).append('\n');
        }
        if (bootstrap.isTrustCerts()) {
            cluster.append("    insecure-skip-tls-verify: true\n");
        }
        String yaml = """
                apiVersion: v1
                clusters:
                - cluster:
                %s    server: %s
                  name: default-cluster
                contexts:
                - context:
                    cluster: default-cluster
                    namespace: default
                    user: default-auth
                  name: default-context
                current-context: default-context
                kind: Config
                preferences: {}
                users:
                - name: default-auth
                  user:
                    client-certificate: %s
                    client-key: %s
                """.formatted(cluster, quote(server), quote(pemPath.toString()), quote(pemPath.toString()));
        Path dir = kubeconfig.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve("." + kubeconfig.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, yaml);
        Files.move(tmp, kubeconfig, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** A YAML double-quoted scalar: paths and URLs with any character stay what they are. */
    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String decode(String base64) {
        return new String(Base64.getMimeDecoder().decode(base64), StandardCharsets.US_ASCII);
    }

    private static boolean empty(String s) {
        return s == null || s.isEmpty();
    }
}
