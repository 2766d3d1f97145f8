package io.jkubelet.core.credentialprovider.plugin;

import io.jkubelet.core.credentialprovider.plugin.CredentialProviderConfig.ExecEnvVar;
import io.jkubelet.core.credentialprovider.plugin.CredentialProviderResponse.AuthConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.jkubelet.core.credentialprovider.plugin.PluginScripts.V1;
import static io.jkubelet.core.credentialprovider.plugin.PluginScripts.V1BETA1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The exec protocol with real processes: shell scripts in a bin dir of the test's own. */
class ExecPluginTest {
    private static final String IMAGE = "registry.example.com/team/app";

    @TempDir Path bin;

    private ExecPlugin plugin(String name, String apiVersion) {
        return new ExecPlugin(name, bin, apiVersion, List.of(), List.of(), ExecPlugin.TIMEOUT);
    }

    @Test
    void theRequestGoesOnStdinAndTheResponseIsReadFromStdout() throws Exception {
        PluginScripts.answering(bin, "ok", PluginScripts.response(V1, "Registry", "5m",
                "registry.example.com", "alice", "s3cret", "*.example.com", "bob", "pw"));

        CredentialProviderResponse response = plugin("ok", V1).exec(IMAGE);

        assertThat(PluginScripts.request(bin, "ok")).isEqualTo(
                "{\"kind\":\"CredentialProviderRequest\",\"apiVersion\":\"credentialprovider.kubelet.k8s.io/v1\","
                        + "\"image\":\"registry.example.com/team/app\"}\n");
        assertThat(response.cacheKeyType()).isEqualTo("Registry");
        assertThat(response.cacheDuration()).isEqualTo(Duration.ofMinutes(5));
        assertThat(response.auth()).isEqualTo(Map.of("registry.example.com", new AuthConfig("alice", "s3cret"),
                "*.example.com", new AuthConfig("bob", "pw")));
    }

    @Test
    void theRequestIsOfTheProvidersApiVersionAndAResponseWithoutCacheDurationLeavesItUnset() throws Exception {
        PluginScripts.answering(bin, "beta", PluginScripts.response(V1BETA1, "Image", null, "r.io", "u", "p"));

        CredentialProviderResponse response = plugin("beta", V1BETA1).exec(IMAGE);

        assertThat(PluginScripts.request(bin, "beta")).contains("\"apiVersion\":\"" + V1BETA1 + "\"");
        assertThat(response.cacheDuration()).isNull();
    }

    @Test
    void argsAndEnvReachThePluginOverTheKubeletsOwnEnvironment() throws Exception {
        // The user is built from the arguments and the environment the plugin sees.
        PluginScripts.script(bin, "env", "cat >/dev/null\n"
                + "printf '{\"kind\":\"CredentialProviderResponse\",\"apiVersion\":\"" + V1 + "\",\"cacheKeyType\":"
                + "\"Image\",\"auth\":{\"r.io\":{\"username\":\"%s|%s|%s|%s\",\"password\":\"%s\"}}}' "
                + "\"$1\" \"$2\" \"$FOO\" \"$HOME\" \"$PATH\"");
        ExecPlugin plugin = new ExecPlugin("env", bin, V1, List.of("--region", "eu west"),
                List.of(new ExecEnvVar("FOO", "bar"), new ExecEnvVar("HOME", "/from-config")), ExecPlugin.TIMEOUT);

        AuthConfig auth = plugin.exec(IMAGE).auth().get("r.io");

        assertThat(auth.username()).isEqualTo("--region|eu west|bar|/from-config");
        // Not given in the config: the kubelet's own.
        assertThat(auth.password()).isEqualTo(System.getenv("PATH"));
    }

    @Test
    void aPluginThatFailsIsNamedWithItsExitStatusAndStderr() throws Exception {
        PluginScripts.script(bin, "fails", "cat >/dev/null; echo 'token service unreachable' >&2; exit 3");

        assertThatThrownBy(() -> plugin("fails", V1).exec(IMAGE)).isInstanceOf(ExecPlugin.ExecException.class)
                .hasMessage("error execing credential provider plugin fails for image registry.example.com/team/app:"
                        + " exit status 3: token service unreachable");
    }

    @Test
    void aPluginThatHangsIsKilledWithWhatItStartedAtTheTimeout() throws Exception {
        Path pids = bin.resolve("pids");
        PluginScripts.script(bin, "hangs", "echo $$ > '" + pids + "'\nsleep 600 &\necho $! >> '" + pids + "'\n"
                + "echo 'waiting for the token' >&2\nwait");
        // The timeout is upstream's minute; a hang is a hang whatever the timeout.
        ExecPlugin plugin = new ExecPlugin("hangs", bin, V1, List.of(), List.of(), Duration.ofMillis(500));

        assertThatThrownBy(() -> plugin.exec(IMAGE)).isInstanceOf(ExecPlugin.ExecException.class)
                .hasMessage("error execing credential provider plugin hangs for image registry.example.com/team/app:"
                        + " context deadline exceeded: waiting for the token");
        List<Long> started = Files.readAllLines(pids).stream().map(Long::parseLong).toList();
        assertThat(started).hasSize(2);
        await().atMost(Duration.ofSeconds(10)).until(() -> started.stream()
                .noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)));
    }

    @Test
    void junkOnStdoutIsNoResponse() throws Exception {
        PluginScripts.script(bin, "junk", "cat >/dev/null; echo 'hello, I am a plugin'");
        assertThatThrownBy(() -> plugin("junk", V1).exec(IMAGE)).hasMessageStartingWith(
                "error reading GVK from response: couldn't get version/kind; json parse error: ");

        PluginScripts.script(bin, "silent", "cat >/dev/null");
        assertThatThrownBy(() -> plugin("silent", V1).exec(IMAGE)).hasMessage(
                "error reading GVK from response: couldn't get version/kind; json parse error: unexpected end of JSON input");

        PluginScripts.script(bin, "list", "cat >/dev/null; echo '[1, 2]'");
        assertThatThrownBy(() -> plugin("list", V1).exec(IMAGE)).hasMessageStartingWith(
                "error reading GVK from response: couldn't get version/kind; json parse error: json: cannot unmarshal array");
    }

    @Test
    void aResponseOfAnotherApiVersionIsRefused() throws Exception {
        PluginScripts.answering(bin, "beta", PluginScripts.response(V1BETA1, "Image", null, "r.io", "u", "p"));

        assertThatThrownBy(() -> plugin("beta", V1).exec(IMAGE)).hasMessage(
                "apiVersion from credential plugin response did not match expected apiVersion:"
                        + "credentialprovider.kubelet.k8s.io/v1, actual apiVersion:credentialprovider.kubelet.k8s.io/v1beta1");
    }

    @Test
    void aResponseThatDoesNotDecodeIsRefusedWithoutQuotingIt() throws Exception {
        // A wrong kind, a cacheDuration that is no duration, a password of the wrong type: upstream says only this,
        // since the response may hold credentials.
        for (String body : new String[] {
                "{\"kind\":\"CredentialProviderRequest\",\"apiVersion\":\"" + V1 + "\",\"image\":\"x\"}",
                "{\"apiVersion\":\"" + V1 + "\",\"cacheKeyType\":\"Image\"}",
                "{\"kind\":\"CredentialProviderResponse\",\"apiVersion\":\"" + V1 + "\",\"cacheDuration\":\"soon\"}",
                "{\"kind\":\"CredentialProviderResponse\",\"apiVersion\":\"" + V1 + "\",\"cacheDuration\":300}",
                "{\"kind\":\"CredentialProviderResponse\",\"apiVersion\":\"" + V1
                        + "\",\"auth\":{\"r.io\":{\"username\":\"u\",\"password\":12345}}}"}) {
            PluginScripts.answering(bin, "bad", body);
            assertThatThrownBy(() -> plugin("bad", V1).exec(IMAGE)).as(body)
                    .hasMessage("error decoding credential provider plugin response from stdout");
        }
    }

    @Test
    void unknownResponseFieldsArePassedOverAsUpstreamsLenientDecoderDoes() throws Exception {
        PluginScripts.answering(bin, "newer", "{\"kind\":\"CredentialProviderResponse\",\"apiVersion\":\"" + V1
                + "\",\"cacheKeyType\":\"Global\",\"somethingNew\":true,\"auth\":{\"r.io\":{\"username\":\"u\","
                + "\"password\":\"p\",\"email\":\"e\"}}}");

        assertThat(plugin("newer", V1).exec(IMAGE).auth()).containsEntry("r.io", new AuthConfig("u", "p"));
    }

    @Test
    void aPluginThatCannotBeStartedIsNamed() throws Exception {
        Files.writeString(bin.resolve("noexec"), "#!/bin/sh\n");

        assertThatThrownBy(() -> plugin("noexec", V1).exec(IMAGE)).hasMessage(
                "error execing credential provider plugin noexec for image registry.example.com/team/app: fork/exec "
                        + bin.resolve("noexec") + ": permission denied: ");
    }
}
