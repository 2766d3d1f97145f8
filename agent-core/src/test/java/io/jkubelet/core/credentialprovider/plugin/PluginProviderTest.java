package io.jkubelet.core.credentialprovider.plugin;

import io.jkubelet.core.credentialprovider.ProvidedCredentials;
import io.jkubelet.core.runtime.RegistryAuth;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.jkubelet.core.credentialprovider.plugin.PluginScripts.V1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A plugin as a credential source: matchImages, its cache (keys, durations, expiry by the injected clock), single runs. */
class PluginProviderTest {
    private static final Duration DEFAULT = Duration.ofMinutes(10);

    @TempDir Path bin;
    private final FakeClock clock = new FakeClock();

    private PluginProvider provider(String name, Duration defaultCacheDuration, String... matchImages) {
        return new PluginProvider(name, List.of(matchImages), defaultCacheDuration,
                new ExecPlugin(name, bin, V1, List.of(), List.of(), ExecPlugin.TIMEOUT), clock);
    }

    private static String user(ProvidedCredentials provided, String location) {
        return provided.config().get(location).username();
    }

    @Test
    void anImageNoMatchImagesMatchesNeverRunsThePlugin() throws Exception {
        PluginScripts.answering(bin, "ecr", PluginScripts.response(V1, "Image", null, "r.io", "u", "p"));
        PluginProvider ecr = provider("ecr", DEFAULT, "*.dkr.ecr.*.amazonaws.com", "r.io:5000");

        assertThat(ecr.provide("docker.io/library/busybox")).isEqualTo(ProvidedCredentials.NONE);
        assertThat(ecr.provide("r.io/app")).isEqualTo(ProvidedCredentials.NONE);
        assertThat(PluginScripts.runs(bin, "ecr")).isZero();

        assertThat(ecr.provide("123.dkr.ecr.eu-west-1.amazonaws.com/app").config()).containsKey("r.io");
        assertThat(PluginScripts.runs(bin, "ecr")).isEqualTo(1);
    }

    @Test
    void theCredentialsBecomeKeyringEntriesOfTheirLocations() throws Exception {
        PluginScripts.answering(bin, "p", PluginScripts.response(V1, "Image", null,
                "r.io", "alice", "pw1", "*.r.io", "bob", "pw2"));

        ProvidedCredentials provided = provider("p", DEFAULT, "r.io").provide("r.io/app");

        assertThat(provided.failure()).isEmpty();
        assertThat(provided.config()).isEqualTo(Map.of("r.io", new RegistryAuth("alice", "pw1", "r.io", null),
                "*.r.io", new RegistryAuth("bob", "pw2", "*.r.io", null)));
    }

    @Test
    void anImageKeyedAnswerServesThatImageOnlyUntilItsCacheDurationIsPast() throws Exception {
        PluginScripts.answering(bin, "p", PluginScripts.response(V1, "Image", "1m", "r.io", "u", "p"));
        PluginProvider p = provider("p", DEFAULT, "r.io");

        p.provide("r.io/team/app");
        p.provide("r.io/team/app");
        assertThat(PluginScripts.runs(bin, "p")).as("two pulls within cacheDuration").isEqualTo(1);
        p.provide("r.io/team/other");
        assertThat(PluginScripts.runs(bin, "p")).as("another image").isEqualTo(2);

        clock.advance(Duration.ofMinutes(1));
        p.provide("r.io/team/app");
        assertThat(PluginScripts.runs(bin, "p")).as("at its expiry, still cached").isEqualTo(2);
        clock.advance(Duration.ofNanos(1));
        p.provide("r.io/team/app");
        assertThat(PluginScripts.runs(bin, "p")).as("past its expiry").isEqualTo(3);
    }

    @Test
    void aRegistryKeyedAnswerServesEveryImageOfThatRegistryAndPort() throws Exception {
        PluginScripts.answering(bin, "p", PluginScripts.response(V1, "Registry", "1m", "r.io", "u", "p"));
        PluginProvider p = provider("p", DEFAULT, "r.io", "r.io:5000");

        p.provide("r.io/team/app");
        p.provide("r.io/other/app");
        assertThat(PluginScripts.runs(bin, "p")).isEqualTo(1);
        p.provide("r.io:5000/team/app");
        assertThat(PluginScripts.runs(bin, "p")).as("another port is another registry").isEqualTo(2);
    }

    @Test
    void aGlobalAnswerServesEveryImageThePluginMatches() throws Exception {
        PluginScripts.answering(bin, "p", PluginScripts.response(V1, "Global", "1m", "*.r.io", "u", "p"));
        PluginProvider p = provider("p", DEFAULT, "*.r.io");

        assertThat(user(p.provide("a.r.io/app"), "*.r.io")).isEqualTo("u");
        assertThat(user(p.provide("b.r.io/other"), "*.r.io")).isEqualTo("u");
        assertThat(PluginScripts.runs(bin, "p")).isEqualTo(1);
    }

    @Test
    void withoutCacheDurationTheDefaultCacheDurationApplies() throws Exception {
        PluginScripts.answering(bin, "p", PluginScripts.response(V1, "Image", null, "r.io", "u", "p"));
        PluginProvider p = provider("p", DEFAULT, "r.io");

        p.provide("r.io/app");
        clock.advance(DEFAULT);
        p.provide("r.io/app");
        assertThat(PluginScripts.runs(bin, "p")).isEqualTo(1);
        clock.advance(Duration.ofSeconds(1));
        p.provide("r.io/app");
        assertThat(PluginScripts.runs(bin, "p")).isEqualTo(2);
    }

    @Test
    void aCacheDurationOfZeroCachesNothingWhetherTheAnswersOrTheDefault() throws Exception {
        PluginScripts.answering(bin, "zero", PluginScripts.response(V1, "Global", "0s", "r.io", "u", "p"));
        PluginProvider zero = provider("zero", DEFAULT, "r.io");
        zero.provide("r.io/app");
        zero.provide("r.io/app");
        assertThat(PluginScripts.runs(bin, "zero")).isEqualTo(2);

        PluginScripts.answering(bin, "nodefault", PluginScripts.response(V1, "Global", null, "r.io", "u", "p"));
        PluginProvider noDefault = provider("nodefault", Duration.ZERO, "r.io");
        noDefault.provide("r.io/app");
        noDefault.provide("r.io/app");
        assertThat(PluginScripts.runs(bin, "nodefault")).isEqualTo(2);

        // The answer's own duration wins over a default of zero.
        PluginScripts.answering(bin, "own", PluginScripts.response(V1, "Global", "1m", "r.io", "u", "p"));
        PluginProvider own = provider("own", Duration.ZERO, "r.io");
        own.provide("r.io/app");
        own.provide("r.io/app");
        assertThat(PluginScripts.runs(bin, "own")).isEqualTo(1);
    }

    @Test
    void aFailingPluginGivesNothingIsNamedAndIsAskedAgainAtTheNextPull() throws Exception {
        Path runs = bin.resolve("runs");
        PluginScripts.script(bin, "fails", "echo run >> '" + runs + "'; echo 'no token' >&2; exit 1");
        PluginProvider fails = provider("fails", DEFAULT, "r.io");

        ProvidedCredentials provided = fails.provide("r.io/app");
        assertThat(provided.config()).isEmpty();
        assertThat(provided.failure()).contains("Failed getting credential from external registry credential provider"
                + " fails: error execing credential provider plugin fails for image r.io/app: exit status 1: no token");
        fails.provide("r.io/app");
        assertThat(java.nio.file.Files.readAllLines(runs)).hasSize(2);
    }

    @Test
    void anAnswerWithAnInvalidCacheKeyTypeGivesNothing() throws Exception {
        PluginScripts.answering(bin, "p", PluginScripts.response(V1, "Pod", "1m", "r.io", "u", "p"));
        PluginProvider p = provider("p", DEFAULT, "r.io");

        ProvidedCredentials provided = p.provide("r.io/app");
        assertThat(provided.config()).isEmpty();
        assertThat(provided.failure()).contains("Failed getting credential from external registry credential provider"
                + " p: credential provider plugin did not return a valid cacheKeyType: \"Pod\"");
        p.provide("r.io/app");
        assertThat(PluginScripts.runs(bin, "p")).as("nothing cached").isEqualTo(2);
    }

    @Test
    void concurrentAsksForOneImageRunThePluginOnce() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        // Nothing is cached (cacheDuration 0s): only the single flight keeps the second ask from running it again.
        PluginProvider p = new PluginProvider("p", List.of("r.io"), Duration.ZERO, image -> {
            runs.incrementAndGet();
            running.countDown();
            release.await();
            return new CredentialProviderResponse("Image", Duration.ZERO,
                    Map.of("r.io", new CredentialProviderResponse.AuthConfig("u", "p")));
        }, clock);

        CompletableFuture<ProvidedCredentials> first = CompletableFuture.supplyAsync(() -> p.provide("r.io/app"));
        running.await();
        AtomicReference<ProvidedCredentials> second = new AtomicReference<>();
        Thread waiter = new Thread(() -> second.set(p.provide("r.io/app")));
        waiter.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> waiter.getState() == Thread.State.WAITING);
        release.countDown();
        waiter.join();

        assertThat(first.get().config()).containsKey("r.io");
        assertThat(second.get().config()).containsKey("r.io");
        assertThat(runs).hasValue(1);
        p.provide("r.io/app");
        assertThat(runs).as("a later ask runs it again").hasValue(2);
    }
}
