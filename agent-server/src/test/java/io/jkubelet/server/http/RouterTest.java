package io.jkubelet.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class RouterTest {

    private static final Handler H = r -> Response.text(200, "x");

    private final Router router =
            Router.builder()
                    .get("/pods", H)
                    .any("/healthz", H)
                    .any("/healthz/ping", H)
                    .any("/runningpods/", H)
                    .get("/containerLogs/{podNamespace}/{podID}/{containerName}", H)
                    .get("/exec/{podNamespace}/{podID}/{containerName}", H)
                    .route("POST", "/exec/{podNamespace}/{podID}/{containerName}", H)
                    .get("/exec/{podNamespace}/{podID}/{uid}/{containerName}", H)
                    .get("/logs/{logpath:*}", H)
                    .get("/stats/summary", H)
                    .get("/stats/{podNamespace}", H)
                    .build();

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
        "GET,    /pods,                    found /pods",
        "POST,   /pods,                    405 GET",
        "HEAD,   /pods,                    405 GET",
        "GET,    /pods/x,                  restful404",
        "GET,    /nothing,                 mux404",
        "DELETE, /healthz,                 found /healthz",
        "GET,    /healthz/ping,            found /healthz/ping",
        "GET,    /healthz/nope,            mux404",
        "GET,    /runningpods/,            found /runningpods/",
        "GET,    /runningpods/deeper/path, found /runningpods/",
        "GET,    /runningpods,             redirect /runningpods/",
        "GET,    /containerLogs/ns/p/c,    found /containerLogs/{podNamespace}/{podID}/{containerName}",
        "GET,    /containerLogs/ns/p,      restful404",
        "GET,    /containerLogs/ns//c,     restful404",
        "PUT,    /exec/ns/p/c,             405 GET|POST",
        "POST,   /exec/ns/p/c,             found /exec/{podNamespace}/{podID}/{containerName}",
        "GET,    /exec/ns/p/u/c,           found /exec/{podNamespace}/{podID}/{uid}/{containerName}",
        "GET,    /logs/a/b/c.log,          found /logs/{logpath:*}",
        "GET,    /stats/summary,           found /stats/summary",
        "GET,    /stats/kube-system,       found /stats/{podNamespace}",
    })
    void matchesLikeGoMuxAndRestful(String method, String path, String expected) {
        Router.Match match = router.match(method, path);
        String actual =
                switch (match) {
                    case Router.Found f -> "found " + f.pattern();
                    case Router.MethodNotAllowed m -> "405 " + String.join("|", m.allowed());
                    case Router.Redirect r -> "redirect " + r.location();
                    case Router.NotFound n -> n.restful() ? "restful404" : "mux404";
                };
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void pathParametersAreExtracted() {
        Router.Found found = (Router.Found) router.match("GET", "/exec/kube-system/etcd/0a1b/main");
        assertThat(found.pathParams())
                .isEqualTo(Map.of("podNamespace", "kube-system", "podID", "etcd", "uid", "0a1b", "containerName", "main"));
        Router.Found logs = (Router.Found) router.match("GET", "/logs/pods/a/0.log");
        assertThat(logs.pathParams()).isEqualTo(Map.of("logpath", "pods/a/0.log"));
    }

    @Test
    void badPatternsAndDuplicatesAreRejectedWithThePattern() {
        assertThatThrownBy(() -> Router.builder().get("pods", H)).hasMessageContaining("must start with '/': pods");
        assertThatThrownBy(() -> Router.builder().get("/a/{x:*}/b", H)).hasMessageContaining("must be the last segment");
        assertThatThrownBy(() -> Router.builder().any("/a/{x}/", H)).hasMessageContaining("subtree pattern takes no parameters");
        assertThatThrownBy(() -> Router.builder().get("/pods", H).get("/pods", H)).hasMessageContaining("GET /pods is already registered");
        assertThatThrownBy(() -> Router.builder().any("/pods", H).get("/pods", H)).hasMessageContaining("already registered");
        assertThat(List.of(Router.builder().get("/pods", H).route("POST", "/pods", H).build())).hasSize(1);
    }
}
