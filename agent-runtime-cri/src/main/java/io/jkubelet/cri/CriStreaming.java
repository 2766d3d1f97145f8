package io.jkubelet.cri;

import io.jkubelet.core.runtime.StreamingRuntime;
import io.jkubelet.cri.v1.CriApi;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;

/**
 * Exec, attach and port-forward on the runtime's streaming server, as upstream's {@code kubeGenericRuntimeManager}
 * {@code GetExec}/{@code GetAttach}/{@code GetPortForward}: the CRI call hands out the URL of a one-time session,
 * which the kubelet's server proxies the client to.
 */
final class CriStreaming implements StreamingRuntime {

    private final CriCalls calls;

    CriStreaming(CriCalls calls) {
        this.calls = calls;
    }

    @Override
    public URI getExec(String containerId, List<String> command, boolean stdin, boolean stdout, boolean stderr,
            boolean tty) {
        String url = calls.runtime("Exec", containerId, s -> s.exec(CriApi.ExecRequest.newBuilder()
                .setContainerId(containerId).addAllCmd(command).setTty(tty).setStdin(stdin).setStdout(stdout)
                .setStderr(stderr).build())).getUrl();
        return parse(url, "Exec", containerId);
    }

    @Override
    public URI getAttach(String containerId, boolean stdin, boolean stdout, boolean stderr, boolean tty) {
        String url = calls.runtime("Attach", containerId, s -> s.attach(CriApi.AttachRequest.newBuilder()
                .setContainerId(containerId).setTty(tty).setStdin(stdin).setStdout(stdout).setStderr(stderr)
                .build())).getUrl();
        return parse(url, "Attach", containerId);
    }

    @Override
    public URI getPortForward(String podSandboxId, List<Integer> ports) {
        String url = calls.runtime("PortForward", podSandboxId, s -> s.portForward(CriApi.PortForwardRequest.newBuilder()
                .setPodSandboxId(podSandboxId).addAllPort(ports).build())).getUrl();
        return parse(url, "PortForward", podSandboxId);
    }

    /** Upstream's {@code url.Parse} of the answer: a URL the kubelet can dial, or an error naming the call. */
    private static URI parse(String url, String call, String subject) {
        try {
            URI uri = new URI(url);
            if (uri.getHost() == null || !"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())) {
                throw new URISyntaxException(url, "not an http(s) URL with a host");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new CriCallException(call + " " + subject + ": the runtime's streaming URL " + url + " is unusable: "
                    + e.getMessage(), e);
        }
    }
}
