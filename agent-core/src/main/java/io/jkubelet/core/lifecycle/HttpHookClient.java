package io.jkubelet.core.lifecycle;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HTTPGetAction;

import java.io.IOException;
import java.time.Duration;

/**
 * Sends the GET request of an {@code httpGet} lifecycle hook (upstream {@code kubetypes.HTTPDoer} with
 * {@code httpprobe.NewRequestForHTTPGetAction}). Owned by its consumer, {@link HandlerRunner}; the HTTP
 * probe code implements it, so that hooks and probes build requests alike (scheme, host header, named
 * ports, {@code User-Agent: kube-lifecycle/<version>}).
 *
 * <p>As upstream's lifecycle handler, only a failed request counts as a hook failure: the status code is
 * not checked, and the body is read (up to 10 KiB) and discarded. Implementations are thread-safe.
 */
@FunctionalInterface
public interface HttpHookClient {

    /**
     * Sends the request and waits for the response, at most {@code timeout}.
     *
     * @param host the pod's IP when the action names no host, else the action's host
     * @throws IOException when the request could not be made or no response came; the message is what
     *     the hook failure reports
     */
    void get(HTTPGetAction action, Container container, String host, Duration timeout)
            throws IOException, InterruptedException;

    /**
     * For a kubelet built without an HTTP client: every {@code httpGet} hook fails, saying so. Never a
     * silent success.
     */
    HttpHookClient UNAVAILABLE = (action, container, host, timeout) -> {
        throw new IOException("no HTTP client is configured for lifecycle hooks");
    };
}
