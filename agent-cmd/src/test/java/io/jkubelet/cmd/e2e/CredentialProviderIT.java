package io.jkubelet.cmd.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Credential provider plugins on Docker through the built jar: a plugin written for the test pulls an image of the
 * local htpasswd registry that nothing else on the node could, its cache spares a second run, a failing plugin is
 * named in the pod's ErrImagePull; a bad configuration ends the start naming the file and the field. The plugin is a
 * third party's stand-in: the upstream kubelet v1.20.2 goes through the same pulls with it first, in v1alpha1 (the
 * only version v1.20 speaks, behind its KubeletCredentialProviders gate), and jkubelet must show the same.
 */
class CredentialProviderIT extends AgentTestBase {

    @Test
    void aPluginsCredentialsPullAPrivateImageItsCacheIsHonouredAndItsFailureIsNamed() throws Exception {
        ImagePullIT.registriesRun();
        Docker.run("rmi", CredentialProviderPlugin.PRIVATE_IMAGE); // only this name: the image stays under its others
        try {
            CredentialProviderPlugin.pullsThroughThePlugin(this, new CredentialProviderPlugin(dir));
        } finally {
            agent.stop();
            Docker.removeAll(agent.nodeName);
            Docker.run("rmi", CredentialProviderPlugin.PRIVATE_IMAGE);
        }
    }

    /**
     * What a kubelet showed with the plugin: the private image refused while the plugin fails and the public one
     * pulled, both pods of the private image running once it answers, its runs for those two pulls, and the distinct
     * requests it was given (parsed, so that the order of a JSON object's fields does not count).
     */
    record Seen(boolean privateRefusedWhileFailing, boolean publicRunsWhileFailing, boolean privateRunsOnceAnswered,
                boolean secondPodRuns, int runsForTwoPulls, TreeSet<String> requests) {}

    @Test
    void theUpstreamKubeletAndJkubeletPullThroughThePluginAlikeInV1alpha1() throws Exception {
        ImagePullIT.registriesRun();
        Seen upstream;
        CredentialProviderPlugin upstreamsPlugin = new CredentialProviderPlugin(
                Files.createDirectories(dir.resolve("upstream-plugin")), "v1alpha1");
        List<String> upstreamArgs = new ArrayList<>(List.of("--feature-gates", "KubeletCredentialProviders=true"));
        upstreamArgs.addAll(List.of(upstreamsPlugin.flags()));
        Agent up = Agent.upstream(Files.createDirectories(dir.resolve("upstream")),
                "e2e-" + UUID.randomUUID().toString().substring(0, 8), false, upstreamArgs);
        DockerDefaultRuntime.wrapper();
        try {
            upstream = story(up, upstreamsPlugin);
        } finally {
            up.stop();
            Docker.removeUpstreamPods();
            up.removeCgroups();
            RealClusterBase.unmountUnder(up.dir);
            agent = null;
            DockerDefaultRuntime.runc();
        }

        CredentialProviderPlugin plugin = new CredentialProviderPlugin(
                Files.createDirectories(dir.resolve("jkubelet-plugin")), "v1alpha1");
        Seen jkubelet = story(new Agent(Files.createDirectories(dir.resolve("jkubelet")),
                "e2e-" + UUID.randomUUID().toString().substring(0, 8), List.of(plugin.flags())), plugin);

        System.out.println("upstream kubelet v1.20.2 on Docker: " + upstream);
        System.out.println("jkubelet on Docker:                 " + jkubelet);
        assertThat(jkubelet.privateRefusedWhileFailing()).isTrue();
        assertThat(jkubelet.publicRunsWhileFailing()).isTrue();
        assertThat(jkubelet.privateRunsOnceAnswered()).isTrue();
        assertThat(jkubelet.secondPodRuns()).isTrue();
        assertThat(jkubelet.runsForTwoPulls()).isEqualTo(1);
        assertThat(jkubelet.requests()).isNotEmpty();
        assertThat(jkubelet).isEqualTo(upstream);
    }

    /**
     * The pulls on {@code kubelet}, which it starts and which becomes the test's {@link #agent}; the private image is
     * not on the node before.
     */
    private Seen story(Agent kubelet, CredentialProviderPlugin plugin) throws Exception {
        Docker.run("rmi", CredentialProviderPlugin.PRIVATE_IMAGE);
        agent = kubelet;
        try {
            plugin.fails();
            kubelet.start();
            kubelet.writeManifest("private.yaml", E2ePods.sleeperOf("private", "p", CredentialProviderPlugin.PRIVATE_IMAGE, "Always"));
            kubelet.writeManifest("public.yaml", E2ePods.sleeperOf("public", "p", CredentialProviderPlugin.PUBLIC_IMAGE, "Always"));
            boolean refused = passes(() -> awaitPod("private", Duration.ofSeconds(60), p -> E2ePods.pullFailed(p, "p")));
            boolean publicRuns = passes(() -> awaitPod("public", Duration.ofSeconds(60), AgentOnRuntimeBase::running));

            kubelet.stop();
            plugin.answers();
            kubelet.start();
            boolean privateRuns = passes(() -> awaitPod("private", Duration.ofSeconds(90), AgentOnRuntimeBase::running));
            kubelet.writeManifest("private-again.yaml", E2ePods.sleeperOf("private-again", "p",
                    CredentialProviderPlugin.PRIVATE_IMAGE, "Always"));
            boolean secondRuns = passes(() -> awaitPod("private-again", Duration.ofSeconds(90), AgentOnRuntimeBase::running));
            ObjectMapper json = new ObjectMapper();
            TreeSet<String> requests = new TreeSet<>();
            for (String r : plugin.requests()) {
                requests.add(json.readValue(r, TreeMap.class).toString());
            }
            return new Seen(refused, publicRuns, privateRuns, secondRuns, plugin.runs(), requests);
        } finally {
            Docker.run("rmi", CredentialProviderPlugin.PRIVATE_IMAGE);
        }
    }

    private static boolean passes(Runnable wait) {
        try {
            wait.run();
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }

    @Test
    void aBadConfigurationOrALoneFlagEndsTheStart() throws Exception {
        CredentialProviderPlugin plugin = new CredentialProviderPlugin(dir);
        plugin.answers();
        Files.writeString(plugin.config, Files.readString(plugin.config).replace("  defaultCacheDuration: 1m\n", ""));
        assertThatThrownBy(() -> startAgent(plugin.flags())).hasMessageContaining("Failed to register CRI auth plugins:"
                + " failed to validate credential provider config " + plugin.config + ": providers.defaultCacheDuration:"
                + " Required value: defaultCacheDuration is required");
        agent.removeCgroups();

        assertThatThrownBy(() -> startAgent("--image-credential-provider-config", plugin.config.toString()))
                .hasMessageContaining("Failed to register CRI auth plugins: plugin binary directory  did not exist"
                        + " (--image-credential-provider-bin-dir is required with --image-credential-provider-config)");
        assertThat(agent.logText()).doesNotContain("jkubelet started");
    }
}
