package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * curl against an agent's secure port as an operator reaches it: the agent's node name resolved to 127.0.0.1, its
 * certificate verified against the one it wrote to {@code --cert-dir} ({@code pki/kubelet.crt}), a client
 * certificate when given.
 */
final class SecurePortCurl {
    /** The status and the body of an answer. */
    record Answer(int status, String body) {}

    private final Agent agent;
    private final Path caCert;

    SecurePortCurl(Agent agent) {
        this.agent = agent;
        this.caCert = agent.dir.resolve("pki/kubelet.crt");
    }

    /** The agent's self-signed certificate, trusted by every request. */
    Path caCert() {
        return caCert;
    }

    Answer get(String path) throws Exception {
        return request(null, "GET", path, null, Duration.ofSeconds(10));
    }

    /**
     * One request that must be answered within {@code maxTime}.
     *
     * @param clientPair certificate and key of the client, or null for an anonymous request
     * @param data the body, or null for none
     */
    Answer request(Path[] clientPair, String method, String path, String data, Duration maxTime) throws Exception {
        String host = agent.nodeName;
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", Long.toString(maxTime.toSeconds()), "-o", "-",
                "-w", "\n%{http_code}", "--cacert", caCert.toString(), "--resolve", host + ":" + agent.port + ":127.0.0.1",
                "-X", method));
        if (clientPair != null) {
            cmd.addAll(List.of("--cert", clientPair[0].toString(), "--key", clientPair[1].toString()));
        }
        if (data != null) {
            cmd.addAll(List.of("--data-binary", data));
        }
        cmd.add("https://" + host + ":" + agent.port + path);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(maxTime.toSeconds() + 10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("curl: %s", out).isZero();
        int nl = out.lastIndexOf('\n');
        return new Answer(Integer.parseInt(out.substring(nl + 1).trim()), out.substring(0, nl));
    }
}
