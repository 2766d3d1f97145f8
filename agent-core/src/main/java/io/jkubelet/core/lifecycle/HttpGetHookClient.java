package io.jkubelet.core.lifecycle;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.jkubelet.core.probe.HttpGetRequests;
import io.jkubelet.core.probe.HttpProber;
import io.jkubelet.core.probe.ProbeException;

import java.io.IOException;
import java.time.Duration;

/**
 * {@code httpGet} hooks sent with the probes' HTTP code, as upstream builds both with
 * {@code NewRequestForHTTPGetAction}: same named-port resolution, host default and headers, with
 * {@code User-Agent: kube-lifecycle/<major>.<minor>}. The status code is not judged (upstream neither).
 * Thread-safe.
 */
public final class HttpGetHookClient implements HttpHookClient {
    private final HttpGetRequests requests;
    private final HttpProber http;

    /** @param kubeVersion the kubelet's version, e.g. {@code v1.30.0} */
    public HttpGetHookClient(String kubeVersion) {
        this(new HttpGetRequests(kubeVersion), new HttpProber());
    }

    HttpGetHookClient(HttpGetRequests requests, HttpProber http) {
        this.requests = requests;
        this.http = http;
    }

    @Override
    public void get(HTTPGetAction action, Container container, String host, Duration timeout) throws IOException {
        try {
            http.get(requests.forAction(action, container, host, HttpGetRequests.LIFECYCLE), timeout);
        } catch (ProbeException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
