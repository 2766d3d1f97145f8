package io.jkubelet.cmd;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Properties;

/**
 * The Kubernetes version jkubelet is compatible with (the parent pom's {@code kubelet.compat.version},
 * filtered into {@code version.properties} at build time) and jkubelet's own version.
 */
public final class KubeletVersion {

    private static final Properties PROPERTIES = load();

    private KubeletVersion() {
    }

    /** The mirrored kubelet version, e.g. {@code v1.30.0}: what {@code --version} and node status report. */
    public static String compatVersion() {
        return PROPERTIES.getProperty("kubelet.compat.version");
    }

    /** jkubelet's own (Maven project) version. */
    public static String jkubeletVersion() {
        return PROPERTIES.getProperty("jkubelet.version");
    }

    /** {@code --version}: {@code Kubernetes v1.30.0}, as the kubelet prints it. */
    static String versionLine() {
        return "Kubernetes " + compatVersion() + "\n";
    }

    /** {@code --version=raw}: the version fields as JSON. */
    static String rawVersion() {
        String v = compatVersion();
        String[] parts = v.replaceFirst("^v", "").split("\\.");
        String platform = System.getProperty("os.name").toLowerCase(Locale.ROOT) + "/"
                + goArch(System.getProperty("os.arch"));
        return "{\"major\":\"" + parts[0] + "\",\"minor\":\"" + (parts.length > 1 ? parts[1] : "")
                + "\",\"gitVersion\":\"" + v + "\",\"platform\":\"" + platform
                + "\",\"jkubeletVersion\":\"" + jkubeletVersion() + "\"}\n";
    }

    private static String goArch(String javaArch) {
        return switch (javaArch) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64" -> "arm64";
            default -> javaArch;
        };
    }

    private static Properties load() {
        Properties properties = new Properties();
        try (InputStream in = KubeletVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties is missing from the jkubelet jar");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }
}
