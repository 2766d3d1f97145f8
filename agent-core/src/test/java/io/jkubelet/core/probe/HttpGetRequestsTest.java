package io.jkubelet.core.probe;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HTTPGetActionBuilder;
import io.fabric8.kubernetes.api.model.HTTPHeader;
import io.fabric8.kubernetes.api.model.IntOrString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

class HttpGetRequestsTest {

    private final HttpGetRequests requests = new HttpGetRequests("v1.30.0");
    private final Container web = new ContainerBuilder().withName("web")
            .addNewPort().withName("http").withContainerPort(8080).endPort()
            .addNewPort().withName("bad").withContainerPort(70000).endPort()
            .build();

    private static HTTPGetAction action(String scheme, String host, IntOrString port, String path) {
        return new HTTPGetActionBuilder().withScheme(scheme).withHost(host).withPort(port).withPath(path).build();
    }

    @ParameterizedTest(name = "scheme={0} host={1} port={2} path={3} -> {5}")
    @CsvSource(nullValues = "null", value = {
            "null,  null,        8080, /healthz,      10.0.0.5, http://10.0.0.5:8080/healthz",
            "HTTP,  null,        http, healthz,       10.0.0.5, http://10.0.0.5:8080/healthz",
            "HTTPS, null,        443,  null,          10.0.0.5, https://10.0.0.5:443/",
            "https, example.org, 80,   /a?b=c,        10.0.0.5, https://example.org:80/a?b=c",
            "null,  null,        8080, /x#frag,       fd00::5,  http://[fd00::5]:8080/x",
            "null,  [fd00::6],   8080, /a b,          10.0.0.5, http://[fd00::6]:8080/a%20b",
            "null,  null,        s:8081, /,           10.0.0.5, http://10.0.0.5:8081/",
    })
    void buildsTheUrlAsUpstream(String scheme, String host, String port, String path, String podIp, String url)
            throws Exception {
        // a number, a port name, or (s:) a number written as a string, which upstream also accepts
        IntOrString p = port.startsWith("s:") ? new IntOrString(port.substring(2))
                : port.matches("\\d+") ? new IntOrString(Integer.parseInt(port)) : new IntOrString(port);

        HttpGetRequest request = requests.forProbe(action(scheme, host, p, path), web, podIp);

        assertThat(request.url()).isEqualTo(url);
    }

    @Test
    void defaultHeadersComeFirstThenTheActionsInOrder() throws Exception {
        HTTPGetAction a = action(null, null, new IntOrString("http"), "/");
        a.setHttpHeaders(List.of(new HTTPHeader("X-One", "1"), new HTTPHeader("x-two", "2"),
                new HTTPHeader("X-One", "again")));

        HttpGetRequest request = requests.forProbe(a, web, "10.0.0.5");

        assertThat(request.headers()).extracting(HttpHeader::name, HttpHeader::value).containsExactly(
                tuple("User-Agent", "kube-probe/1.30"), tuple("Accept", "*/*"),
                tuple("X-One", "1"), tuple("X-Two", "2"), tuple("X-One", "again"));
        assertThat(request.hostHeader()).isEqualTo("10.0.0.5:8080");
    }

    @Test
    void givenUserAgentAcceptAndHostReplaceOurs() throws Exception {
        HTTPGetAction a = action(null, null, new IntOrString(80), "/");
        a.setHttpHeaders(List.of(new HTTPHeader("user-agent", "mine/1"), new HTTPHeader("Accept", "text/plain"),
                new HTTPHeader("Host", "svc.example")));

        HttpGetRequest request = requests.forProbe(a, web, "10.0.0.5");

        assertThat(request.headers()).extracting(HttpHeader::name, HttpHeader::value).containsExactly(
                tuple("User-Agent", "mine/1"), tuple("Accept", "text/plain"));
        assertThat(request.hostHeader()).isEqualTo("svc.example");
    }

    @Test
    void anEmptyUserAgentOrAcceptRemovesIt() throws Exception {
        HTTPGetAction a = action(null, null, new IntOrString(80), "/");
        a.setHttpHeaders(List.of(new HTTPHeader("User-Agent", ""), new HTTPHeader("Accept", ""),
                new HTTPHeader("X-Empty", "")));

        HttpGetRequest request = requests.forProbe(a, web, "10.0.0.5");

        assertThat(request.headers()).extracting(HttpHeader::name).containsExactly("X-Empty");
    }

    @Test
    void lifecycleHooksIdentifyThemselves() throws Exception {
        HttpGetRequest request = requests.forAction(action(null, null, new IntOrString(80), "/stop"), web,
                "10.0.0.5", HttpGetRequests.LIFECYCLE);

        assertThat(request.header("User-Agent")).isEqualTo("kube-lifecycle/1.30");
        assertThat(new HttpGetRequests("1.31").userAgent(HttpGetRequests.PROBE)).isEqualTo("kube-probe/1.31");
    }

    @Test
    void errorsNameWhatIsWrong() {
        assertThatThrownBy(() -> requests.forProbe(action(null, null, new IntOrString("metrics"), "/"), web, "10.0.0.5"))
                .isInstanceOf(ProbeException.class)
                .hasMessage("port \"metrics\" not found in the ports of container \"web\"");
        assertThatThrownBy(() -> requests.forProbe(action(null, null, new IntOrString("bad"), "/"), web, "10.0.0.5"))
                .hasMessageContaining("invalid port number: 70000");
        assertThatThrownBy(() -> requests.forProbe(action(null, null, new IntOrString(0), "/"), web, "10.0.0.5"))
                .hasMessageContaining("invalid port number: 0");
        assertThatThrownBy(() -> requests.forProbe(action(null, null, new IntOrString(80), "/"), web, null))
                .hasMessage("httpGet of container \"web\" has no host and the pod has no IP yet");
        assertThatThrownBy(() -> requests.forProbe(action("FTP", null, new IntOrString(80), "/"), web, "10.0.0.5"))
                .hasMessageContaining("httpGet.scheme \"FTP\"");
        assertThatThrownBy(() -> new HttpGetRequests("latest"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"latest\"");
    }
}
