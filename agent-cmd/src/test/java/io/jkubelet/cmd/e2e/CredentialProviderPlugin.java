package io.jkubelet.cmd.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A credential provider plugin written for the tests, {@value #NAME} in a bin dir of the test's own: a script that
 * hands out the local htpasswd registry's user and password ({@code jk_ensure_registry}'s) for
 * {@code 127.0.0.1:5001}, counting its runs, or one that fails; and the node it runs on, as an operator sets it up
 * ({@code --image-credential-provider-config}, {@code --image-credential-provider-bin-dir}).
 */
final class CredentialProviderPlugin {
    static final String NAME = "jk-registry-login";
    /** The private image: the local registry's busybox behind htpasswd authentication. */
    static final String PRIVATE_IMAGE = ImagePullIT.AUTH_REGISTRY + "/jkubelet/busybox:1.0";
    /** A public image the plugin is asked for too (its matchImages name both registries). */
    static final String PUBLIC_IMAGE = ImagePullIT.REGISTRY + "/jkubelet/busybox:1.0";

    final Path bin;
    final Path config;
    final Path runs;
    /** Each request the plugin was given on its standard input, one per line. */
    final Path requests;
    /** The version of the configuration and of the plugin's API: v1, or v1alpha1 (the only one v1.20 speaks). */
    final String version;

    CredentialProviderPlugin(Path dir) throws IOException {
        this(dir, "v1");
    }

    CredentialProviderPlugin(Path dir, String version) throws IOException {
        this.version = version;
        this.bin = Files.createDirectories(dir.resolve("credential-provider-bin"));
        this.runs = dir.resolve("plugin-runs");
        this.requests = dir.resolve("plugin-requests");
        this.config = Files.writeString(dir.resolve("credential-providers.yaml"), """
                apiVersion: kubelet.config.k8s.io/%s
                kind: CredentialProviderConfig
                providers:
                - name: %s
                  matchImages: ["%s", "%s"]
                  defaultCacheDuration: 1m
                  apiVersion: credentialprovider.kubelet.k8s.io/%s
                  env:
                  - {name: REGISTRY_USER, value: %s}
                """.formatted(version, NAME, ImagePullIT.AUTH_REGISTRY, ImagePullIT.REGISTRY, version, ImagePullIT.USER));
    }

    /** The agent's flags for this plugin. */
    String[] flags() {
        return new String[] {"--image-credential-provider-config", config.toString(),
                "--image-credential-provider-bin-dir", bin.toString()};
    }

    /** The plugin fails: exit status 1, a reason on stderr. */
    void fails() throws IOException {
        script(readRequest() + "echo 'token endpoint unreachable' >&2\nexit 1");
    }

    /**
     * The plugin answers with the registry's credentials for 10 minutes, for the whole registry: the user from its
     * {@code env}, the password its own.
     */
    void answers() throws IOException {
        script("echo run >> '" + runs + "'\n" + readRequest()
                + "printf '{\"kind\":\"CredentialProviderResponse\",\"apiVersion\":\"credentialprovider.kubelet.k8s.io/" + version
                + "\","
                + "\"cacheKeyType\":\"Registry\",\"cacheDuration\":\"10m\",\"auth\":{\"" + ImagePullIT.AUTH_REGISTRY
                + "\":{\"username\":\"%s\",\"password\":\"" + ImagePullIT.PASSWORD + "\"}}}' \"$REGISTRY_USER\"");
    }

    /** The script's reading of its request: kept, a line each. */
    private String readRequest() {
        return "cat >> '" + requests + "'\necho >> '" + requests + "'\n";
    }

    /** The requests the plugin was given, in order. */
    java.util.List<String> requests() throws IOException {
        return Files.exists(requests) ? Files.readAllLines(requests).stream().filter(l -> !l.isBlank()).toList()
                : java.util.List.of();
    }

    private void script(String body) throws IOException {
        Path file = bin.resolve(NAME);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    int runs() throws IOException {
        return Files.exists(runs) ? Files.readAllLines(runs).size() : 0;
    }

    /** The upstream-worded failure the pull's error names. */
    static String failure(String image) {
        String repository = image.substring(0, image.lastIndexOf(':'));
        return "Failed getting credential from external registry credential provider " + NAME + ": error execing"
                + " credential provider plugin " + NAME + " for image " + repository + ": exit status 1: token endpoint"
                + " unreachable";
    }

    /**
     * The scenario on any runtime: with the plugin failing, the private image cannot be pulled (nothing else on the
     * node has its credentials), the pull's error names the plugin, and the public image still pulls; with the plugin
     * answering, both pods of the private image run and the plugin ran once for their two pulls (its cache).
     */
    static void pullsThroughThePlugin(AgentOnRuntimeBase test, CredentialProviderPlugin plugin) throws Exception {
        plugin.fails();
        test.startAgent(plugin.flags());
        test.agent.writeManifest("private.yaml", E2ePods.sleeperOf("private", "p", PRIVATE_IMAGE, "Always"));
        test.agent.writeManifest("public.yaml", E2ePods.sleeperOf("public", "p", PUBLIC_IMAGE, "Always"));
        // ErrImagePull shows in the status only until the next sync (then ImagePullBackOff): its event carries it.
        test.awaitPod("private", Duration.ofSeconds(60), p -> E2ePods.pullFailed(p, "p"));
        String event = "Warning Failed: Pod default/private-" + test.agent.nodeName + " spec.containers{p} Failed to pull"
                + " image \"" + PRIVATE_IMAGE + "\": ";
        assertThat(test.agent.logText().lines().filter(line -> line.contains(event)).findFirst())
                .hasValueSatisfying(line -> assertThat(line).endsWith("; " + failure(PRIVATE_IMAGE)));
        test.awaitPod("public", Duration.ofSeconds(60), AgentOnRuntimeBase::running);
        assertThat(test.agent.logText()).contains(failure(PUBLIC_IMAGE)).contains("Failed to pull image \""
                + PRIVATE_IMAGE + "\"");

        test.agent.stop();
        plugin.answers();
        test.agent.start();
        test.awaitPod("private", Duration.ofSeconds(90), AgentOnRuntimeBase::running);
        test.agent.writeManifest("private-again.yaml", E2ePods.sleeperOf("private-again", "p", PRIVATE_IMAGE, "Always"));
        test.awaitPod("private-again", Duration.ofSeconds(90), AgentOnRuntimeBase::running);
        assertThat(test.agent.logText().split("Successfully pulled image \"" + PRIVATE_IMAGE + "\"", -1))
                .as("two pulls of the private image").hasSize(3);
        assertThat(plugin.runs()).as("the plugin's runs for two pulls within its cacheDuration").isEqualTo(1);
    }
}
