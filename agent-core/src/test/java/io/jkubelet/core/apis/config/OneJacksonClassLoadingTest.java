package io.jkubelet.core.apis.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.config.DecodeResult;
import io.jkubelet.core.config.StaticPodDecoder;
import io.jkubelet.core.config.StaticPodDefaults;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a KubeletConfiguration file (YAML, JSON, drop-ins, {@code /configz}'s JSON) and a static pod manifest
 * loads no class of Jackson 2's databind, core or YAML module, and the configuration no SnakeYAML class either: one
 * Jackson (3) serves them all. Jackson 2 brought about 540 classes and SnakeYAML 160 into an idle agent, some 5 MiB
 * of resident memory. Jackson 2 databind is on this module's test class path (tests use it as a reference reader),
 * so a main-code use of it would load its classes here.
 *
 * <p>Run in a JVM of its own, with the JVM's class-loading log: in the test JVM other tests may have loaded the
 * classes already, and a class once loaded stays loaded.
 */
class OneJacksonClassLoadingTest {

    @TempDir
    Path dir;

    @Test
    void readingAConfigurationFileLoadsNeitherJackson2NorSnakeYaml() throws Exception {
        String log = run("config");

        assertThat(log).contains("tools.jackson.dataformat.yaml.YAMLParser ")
                .contains("decoded port=10251 failSwapOn=false drop-in maxPods=7");
        assertThat(log).doesNotContain("com.fasterxml.jackson.databind.").doesNotContain("com.fasterxml.jackson.core.")
                .doesNotContain("com.fasterxml.jackson.dataformat.").doesNotContain("org.yaml.snakeyaml.");
    }

    @Test
    void printingAConfigurationLoadsNoYamlReader() throws Exception {
        String log = run("configz");

        // An agent without a config file prints /configz with the JSON mapper; the YAML reader stays unloaded.
        assertThat(log).contains("printed {\"enableServer\":true").contains("io.jkubelet.core.apis.config.KubeletConfigCodec ");
        assertThat(log).doesNotContain("tools.jackson.dataformat.yaml.").doesNotContain("org.snakeyaml.")
                .doesNotContain("Yaml11Factory");
    }

    @Test
    void decodingAStaticPodManifestLoadsNoJackson2() throws Exception {
        String log = run("manifest");

        assertThat(log).contains("decoded pod web");
        assertThat(log).doesNotContain("com.fasterxml.jackson.databind.").doesNotContain("com.fasterxml.jackson.core.");
    }

    private String run(String what) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-Xlog:class+load=info", "-cp",
                System.getProperty("java.class.path"), Decode.class.getName(), what, dir.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    /** Prints a configuration, decodes one (file, drop-in, printed back) or a manifest, and says what it got. */
    static final class Decode {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[1]);
            if (args[0].equals("configz")) {
                KubeletConfiguration defaults = KubeletConfigurationDefaults.apply(KubeletConfiguration.builder().build())
                        .build();
                System.out.println("printed " + KubeletConfigCodec.toJson(defaults));
            } else if (args[0].equals("config")) {
                Path file = dir.resolve("kubelet.yaml");
                Files.writeString(file, "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
                        + "port: 10251\nfailSwapOn: no\nsyncFrequency: 30s\n");
                Path dropIns = Files.createDirectories(dir.resolve("kubelet.conf.d"));
                Files.writeString(dropIns.resolve("10-pods.conf"), "{\"apiVersion\": \"kubelet.config.k8s.io/v1beta1\","
                        + " \"kind\": \"KubeletConfiguration\", \"maxPods\": 7}");
                KubeletConfiguration config = KubeletConfigDropIns.merge(KubeletConfigFile.load(file), dropIns);
                String printed = KubeletConfigCodec.toJson(config);
                if (!printed.contains("\"maxPods\":7")) {
                    throw new IllegalStateException("drop-in not printed: " + printed);
                }
                System.out.println("decoded port=" + config.port() + " failSwapOn=" + config.failSwapOn()
                        + " drop-in maxPods=" + config.maxPods());
            } else {
                byte[] manifest = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n"
                        + "  - name: web\n    image: nginx\n    resources:\n      limits:\n        cpu: 1\n")
                        .getBytes(StandardCharsets.UTF_8);
                DecodeResult<Pod> result = StaticPodDecoder.tryDecodeSinglePod(manifest,
                        StaticPodDefaults.forFile("node-1", "/etc/kubernetes/manifests/web.yaml"));
                if (!(result instanceof DecodeResult.Decoded<Pod> decoded)) {
                    throw new IllegalStateException("not decoded: " + result);
                }
                System.out.println("decoded pod " + decoded.value().getMetadata().getName());
            }
            System.exit(0);
        }
    }
}
