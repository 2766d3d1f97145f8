package io.jkubelet.server.streaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jkubelet.server.http.Request;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The query options and subprotocol choice, table-driven against upstream's rules and texts. */
class StreamingOptionsTest {

    private static Request request(String query) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        new QueryStringDecoder("/x?" + query).parameters().forEach((k, v) -> params.put(k, List.copyOf(v)));
        return new Request("GET", "/x", query, params, Map.of(), new byte[0], Map.of(), null);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "input=1&output=1&error=1        | true  | true  | true  | false",
            "output=1&error=1&tty=1          | false | true  | false | true",
            "input=1                          | true  | false | false | false",
            "output=1&output=0                | false | true  | false | false",
    })
    void streamsAreOnOnlyWhenTheirValueIs1(String query, boolean stdin, boolean stdout, boolean stderr, boolean tty) {
        assertThat(RemoteCommandOptions.parse(request(query))).isEqualTo(new RemoteCommandOptions(stdin, stdout, stderr, tty));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"command=ls", "output=true&error=true",
            // the kubectl flag names are not the API's: the apiserver sends input/output/error
            "stdin=1&stdout=1&stderr=1", "error=1&tty=1", "input=0&output=yes"})
    void noStreamIsRefusedWithUpstreamsText(String query) {
        assertThatThrownBy(() -> RemoteCommandOptions.parse(request(query)))
                .hasMessage("you must specify at least 1 of stdin, stdout, stderr");
    }

    @Test
    void portsAreRepeatedOrCommaSeparated() {
        assertThat(PortForwardOptions.parse(request("port=80,8080&port=443")).ports()).containsExactly(80, 8080, 443);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''           | query parameter \"port\" is required",
            "port=        | query parameter \"port\" cannot be empty",
            "port=0       | port \"0\" must be > 0",
            "port=http    | unable to parse \"http\" as a port: strconv.ParseUint: parsing \"http\": invalid syntax",
            "port=80,     | unable to parse \"80,\" as a port: strconv.ParseUint: parsing \"\": invalid syntax",
            "port=70000   | unable to parse \"70000\" as a port: strconv.ParseUint: parsing \"70000\": value out of range",
            "port=-1      | unable to parse \"-1\" as a port: strconv.ParseUint: parsing \"-1\": invalid syntax",
    })
    void badPortsGetUpstreamsTexts(String query, String message) {
        assertThatThrownBy(() -> PortForwardOptions.parse(request(query))).hasMessage(message);
    }

    @Test
    void subprotocolNegotiation() {
        Set<ChannelProtocol> exec = ChannelProtocol.REMOTE_COMMAND;
        assertThat(ChannelProtocol.negotiate(List.of(), exec)).isEqualTo(ChannelProtocol.NONE);
        assertThat(ChannelProtocol.negotiate(List.of("v4.channel.k8s.io", "v5.channel.k8s.io"), exec)).isEqualTo(ChannelProtocol.V5);
        assertThat(ChannelProtocol.negotiate(List.of("base64.channel.k8s.io", "v4.channel.k8s.io"), exec))
                .isEqualTo(ChannelProtocol.V1_BASE64);
        assertThat(ChannelProtocol.negotiate(List.of("v3.channel.k8s.io"), exec)).as("an SPDY-only name").isNull();
        assertThat(ChannelProtocol.negotiate(List.of("v5.channel.k8s.io", "channel.k8s.io"), ChannelProtocol.PORT_FORWARD))
                .as("port-forward has no v5 and no pre-v4 names").isNull();
        assertThat(ChannelProtocol.offered(List.of("v4.channel.k8s.io, V4.Base64.Channel.k8s.io", "channel.k8s.io")))
                .containsExactly("v4.channel.k8s.io", "v4.base64.channel.k8s.io", "channel.k8s.io");
    }
}
