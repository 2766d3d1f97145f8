package io.jkubelet.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jkubelet.core.apis.config.KubeletAuthentication;
import io.jkubelet.core.apis.config.KubeletAuthorization;
import io.jkubelet.server.auth.AuthFilter;
import io.jkubelet.server.auth.Authorizer;
import io.jkubelet.server.auth.KubeletAuthenticator;
import io.jkubelet.server.auth.RequestAttributes;
import io.jkubelet.server.auth.X509Authenticator;
import io.jkubelet.server.healthz.HealthChecker;
import io.jkubelet.server.http.HttpServerConfig;
import io.jkubelet.server.tls.ServerTls;
import io.jkubelet.server.tls.TlsContext;
import io.jkubelet.server.tls.ServingCertificate;
import io.jkubelet.server.tls.TestPki;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The secure server end to end over real TLS, with real client certificates. */
class SecureServerTest {

    private static TestPki clientCa;
    private static TestPki otherCa;
    private static ServingCertificate serving;

    @TempDir
    static Path dir;

    private final FakeKubeletView view = new FakeKubeletView();
    private final List<RequestAttributes> asked = new CopyOnWriteArrayList<>();
    private final AtomicReference<Authorizer.Decision> decision = new AtomicReference<>(Authorizer.Decision.ALLOW);
    private final AtomicInteger verbosity = new AtomicInteger(-1);
    private SecureServer server;

    @BeforeAll
    static void pki() throws Exception {
        clientCa = TestPki.create("client-ca");
        otherCa = TestPki.create("someone-else");
        serving = ServingCertificate.resolve("", "", dir.resolve("pki"), "node-a", Instant.now());
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private SecureServer start(boolean anonymous, boolean debugging, String minVersion) throws Exception {
        return start(anonymous, debugging, minVersion, new DebugHandlers(() -> "{\"port\":10250}".getBytes(), verbosity::set));
    }

    private SecureServer start(boolean anonymous, boolean debugging, String minVersion, DebugHandlers debug)
            throws Exception {
        TlsContext tls = ServerTls.context(serving, minVersion, List.of(), List.of(clientCa.caCertificate()));
        Authorizer authorizer = attrs -> {
            asked.add(attrs);
            Authorizer.Decision d = decision.get();
            if (d == null) {
                throw new IllegalStateException("review failed");
            }
            return d;
        };
        AuthFilter auth = new AuthFilter(
                new KubeletAuthenticator(List.of(new X509Authenticator(List.of(clientCa.caCertificate()), Clock.systemUTC())), anonymous),
                authorizer, "node-a");
        List<HealthChecker> checks = List.of(HealthChecker.named("log", Optional::empty));
        server = SecureServer.start(HttpServerConfig.kubeletDefaults("secure", InetAddress.getLoopbackAddress(), 0), tls, auth,
                new KubeletHandlers(view, checks), debugging, debug);
        return server;
    }

    private HttpResponse<String> send(TestPki.Issued client, String method, String path, String body) throws Exception {
        HttpClient http = HttpClient.newBuilder().sslContext(TestPki.clientContext(client)).version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(TestPki.Issued client, String path) throws Exception {
        return send(client, "GET", path, null);
    }

    @Test
    void aClientCertificateFromTheClientCaIsTheUserAndItsOrganisationsTheGroups() throws Exception {
        start(false, true, "");
        HttpResponse<String> r = get(clientCa.client("CN=alice,O=ops,O=dev"), "/pods");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"kind\":\"PodList\"");
        assertThat(asked).hasSize(1);
        RequestAttributes a = asked.get(0);
        assertThat(a.user().name()).isEqualTo("alice");
        assertThat(a.user().groups()).containsExactly("ops", "dev", "system:authenticated");
        assertThat(a).extracting(RequestAttributes::verb, RequestAttributes::resource, RequestAttributes::subresource,
                RequestAttributes::name, RequestAttributes::apiVersion).containsExactly("get", "nodes", "proxy", "node-a", "v1");
    }

    @Test
    void withoutAcceptableCredentialsEveryPathIs401EvenUnknownOnes() throws Exception {
        start(false, true, "");
        for (String path : List.of("/pods", "/healthz", "/no/such/path", "/configz")) {
            HttpResponse<String> r = get(null, path);
            assertThat(r.statusCode()).as(path).isEqualTo(401);
            assertThat(r.body()).isEqualTo("Unauthorized");
        }
        // A certificate from another CA is refused as upstream refuses it: 401, not a failed handshake.
        HttpResponse<String> foreign = get(otherCa.client("CN=mallory"), "/pods");
        assertThat(foreign.statusCode()).isEqualTo(401);
        assertThat(asked).isEmpty();
    }

    @Test
    void anonymousWhenEnabledButABadCertificateDoesNotFallBackToIt() throws Exception {
        start(true, true, "");
        assertThat(get(null, "/pods").statusCode()).isEqualTo(200);
        assertThat(asked.get(0).user().name()).isEqualTo("system:anonymous");
        assertThat(asked.get(0).user().groups()).containsExactly("system:unauthenticated");
        assertThat(get(otherCa.client("CN=mallory"), "/pods").statusCode()).isEqualTo(401);
    }

    @Test
    void denialIs403WithTheKubeletsMessageAndSubresourcesFollowThePath() throws Exception {
        start(false, true, "");
        decision.set(Authorizer.Decision.NO_OPINION);
        TestPki.Issued bob = clientCa.client("CN=bob");
        HttpResponse<String> r = get(bob, "/stats/summary");
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).isEqualTo("Forbidden (user=bob, verb=get, resource=nodes, subresource=stats)");
        assertThat(send(bob, "POST", "/metrics/cadvisor", "").body())
                .isEqualTo("Forbidden (user=bob, verb=create, resource=nodes, subresource=metrics)");
        assertThat(get(bob, "/logs/syslog").body()).endsWith("subresource=log)");
        assertThat(send(bob, "PUT", "/debug/flags/v", "3").body()).endsWith("verb=update, resource=nodes, subresource=proxy)");
        assertThat(verbosity.get()).isEqualTo(-1);

        decision.set(null);
        HttpResponse<String> failed = get(bob, "/pods");
        assertThat(failed.statusCode()).isEqualTo(500);
        assertThat(failed.body()).isEqualTo("Authorization error (user=bob, verb=get, resource=nodes, subresource=proxy)");
    }

    @Test
    void theDashboardNeedsCredentialsAndIsAuthorizedAsTheStatsSubresource() throws Exception {
        start(false, false, "");
        HttpResponse<String> anonymous = get(null, "/dashboard/");
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.body()).isEqualTo("Unauthorized");

        TestPki.Issued alice = clientCa.client("CN=alice");
        HttpResponse<String> page = get(alice, "/dashboard/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<title>jkubelet dashboard</title>");
        assertThat(asked.get(asked.size() - 1).subresource()).isEqualTo("stats");

        decision.set(Authorizer.Decision.NO_OPINION);
        assertThat(get(alice, "/dashboard/dashboard.js").body())
                .isEqualTo("Forbidden (user=alice, verb=get, resource=nodes, subresource=stats)");
    }

    @Test
    void debuggingHandlersAre405WhenDisabledAndServedWhenEnabled() throws Exception {
        start(false, false, "");
        TestPki.Issued alice = clientCa.client("CN=alice");
        HttpResponse<String> disabled = get(alice, "/containerLogs/ns/pod/c");
        assertThat(disabled.statusCode()).isEqualTo(405);
        assertThat(disabled.body()).isEqualTo("Debug endpoints are disabled.\n");
        assertThat(get(alice, "/configz").statusCode()).isEqualTo(404);
        server.close();

        start(false, true, "");
        HttpResponse<String> configz = get(alice, "/configz");
        assertThat(configz.statusCode()).isEqualTo(200);
        assertThat(configz.body()).isEqualTo("{\"kubeletconfig\":{\"port\":10250}}");

        HttpResponse<String> v = send(alice, "PUT", "/debug/flags/v", "4");
        assertThat(v.statusCode()).isEqualTo(200);
        assertThat(v.body()).isEqualTo("successfully set klog.logging.verbosity to 4\n");
        assertThat(verbosity.get()).isEqualTo(4);
        HttpResponse<String> bad = send(alice, "PUT", "/debug/flags/v", "loud");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).startsWith("failed set klog.logging.verbosity loud");
        assertThat(get(alice, "/debug/flags/v").statusCode()).isEqualTo(406);

        HttpResponse<String> threads = get(alice, "/debug/pprof/goroutine?debug=2");
        assertThat(threads.statusCode()).isEqualTo(200);
        assertThat(threads.body()).contains("jk-secure-io").contains("\tat ");
        assertThat(get(alice, "/debug/pprof/profile?seconds=0").statusCode()).isEqualTo(400);
    }

    @Test
    void profilingAndDebugFlagsHandlersSwitchedOffAnswer405AsUpstream() throws Exception {
        start(false, true, "", new DebugHandlers(() -> "{}".getBytes(), verbosity::set, false, false));
        TestPki.Issued alice = clientCa.client("CN=alice");

        HttpResponse<String> pprof = get(alice, "/debug/pprof/goroutine?debug=2");
        assertThat(pprof.statusCode()).isEqualTo(405);
        assertThat(pprof.body()).isEqualTo("profiling endpoint is disabled.\n");
        assertThat(get(alice, "/debug/pprof/").body()).isEqualTo("profiling endpoint is disabled.\n");
        HttpResponse<String> flags = send(alice, "PUT", "/debug/flags/v", "4");
        assertThat(flags.statusCode()).isEqualTo(405);
        assertThat(flags.body()).isEqualTo("flags endpoint is disabled.\n");
        assertThat(verbosity.get()).as("not set").isEqualTo(-1);
        assertThat(get(alice, "/configz").statusCode()).as("the other debugging handlers stay").isEqualTo(200);
        server.close();

        start(false, true, "", new DebugHandlers(() -> "{}".getBytes(), verbosity::set, false, true));
        assertThat(send(alice, "PUT", "/debug/flags/v", "4").statusCode()).isEqualTo(200);
        assertThat(get(alice, "/debug/pprof/goroutine").statusCode()).isEqualTo(405);
        server.close();

        start(false, true, "", new DebugHandlers(() -> "{}".getBytes(), verbosity::set, true, false));
        assertThat(get(alice, "/debug/pprof/goroutine").statusCode()).isEqualTo(200);
        assertThat(send(alice, "PUT", "/debug/flags/v", "4").statusCode()).isEqualTo(405);
    }

    @Test
    void tlsMinVersionIsEnforced() throws Exception {
        start(false, true, "VersionTLS13");
        SSLParameters tls12 = new SSLParameters();
        tls12.setProtocols(new String[] {"TLSv1.2"});
        HttpClient old = HttpClient.newBuilder().sslContext(TestPki.clientContext(null)).sslParameters(tls12).build();
        assertThatThrownBy(() -> old.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/pods")).build(),
                HttpResponse.BodyHandlers.ofString())).isInstanceOf(SSLHandshakeException.class);
        assertThat(get(clientCa.client("CN=alice"), "/pods").statusCode()).isEqualTo(200);
    }

    @Test
    void theServerPresentsItsSelfSignedChainForItsHostName() throws Exception {
        start(true, true, "");
        HttpClient strict = HttpClient.newBuilder().sslContext(TestPki.trusting(serving.chain().get(1))).build();
        // The certificate names node-a, not 127.0.0.1: a verifying client refuses the address...
        assertThatThrownBy(() -> strict.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/pods")).build(),
                HttpResponse.BodyHandlers.ofString())).isInstanceOf(SSLHandshakeException.class);
        // ...but the chain itself verifies up to the generated CA.
        assertThat(serving.chain().get(0).getSubjectX500Principal().getName()).startsWith("CN=node-a@");
        serving.chain().get(0).verify(serving.chain().get(1).getPublicKey());
    }

    @Test
    void standaloneRefusesWebhookModesAndNoMethodAtAll() {
        KubeletAuthentication.Builder authn = KubeletAuthentication.builder();
        authn.webhookBuilder().enabled(true);
        KubeletAuthorization.Builder authz = KubeletAuthorization.builder();
        authz.mode(KubeletAuthorization.MODE_ALWAYS_ALLOW);
        assertThatThrownBy(filter(authn.build(), authz.build()))
                .hasMessageStartingWith("no client provided, cannot use webhook authentication");

        authn.webhookBuilder().enabled(false);
        authn.anonymousBuilder().enabled(true);
        authz.mode(KubeletAuthorization.MODE_WEBHOOK);
        assertThatThrownBy(filter(authn.build(), authz.build()))
                .hasMessageStartingWith("no client provided, cannot use webhook authorization");

        authn.anonymousBuilder().enabled(false);
        authz.mode(KubeletAuthorization.MODE_ALWAYS_ALLOW);
        assertThatThrownBy(filter(authn.build(), authz.build()))
                .hasMessageStartingWith("No authentication method configured");
    }

    /** The standalone filter (no apiserver to ask) for these settings. */
    private static ThrowingCallable filter(KubeletAuthentication authn, KubeletAuthorization authz) {
        return () -> io.jkubelet.server.auth.KubeletAuth.filter(authn, authz, "n", List.of(), Optional.empty(),
                Optional.empty(), Clock.systemUTC());
    }
}
