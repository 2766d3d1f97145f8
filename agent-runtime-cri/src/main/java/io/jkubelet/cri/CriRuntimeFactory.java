package io.jkubelet.cri;

import java.time.Duration;

/**
 * Connects the CRI adapter to a runtime and asks its {@code Version}, so that a wrong endpoint, a stopped runtime or
 * one without CRI v1 stops the agent at start-up with one message naming the endpoint (upstream:
 * {@code validate service connection: ...}).
 */
public final class CriRuntimeFactory {
    private CriRuntimeFactory() {}

    /**
     * @param endpoint       {@code containerRuntimeEndpoint}, e.g. {@code unix:///run/containerd/containerd.sock}
     * @param imageEndpoint  {@code imageServiceEndpoint}, or null/empty for the runtime's own endpoint
     * @param requestTimeout {@code runtimeRequestTimeout}, the deadline of every short call
     * @throws IllegalArgumentException when an endpoint is malformed
     * @throws CriUnavailableException when the runtime does not answer Version
     */
    public static CriRuntime connect(String endpoint, String imageEndpoint, Duration requestTimeout) {
        CriEndpoint runtimeEndpoint = CriEndpoint.parse(endpoint);
        CriEndpoint images = imageEndpoint == null || imageEndpoint.isBlank() ? runtimeEndpoint
                : CriEndpoint.parse(imageEndpoint);
        CriChannel runtimeChannel = new CriChannel(runtimeEndpoint);
        CriChannel imageChannel = images.equals(runtimeEndpoint) ? runtimeChannel : new CriChannel(images);
        return validated(new CriCalls(runtimeChannel, imageChannel, requestTimeout));
    }

    /**
     * The adapter over {@code calls} once the runtime has answered Version (and the image service, when it is
     * another endpoint, ListImages); else the channels are closed and the error names the endpoints.
     */
    static CriRuntime validated(CriCalls calls) {
        CriRuntime runtime = new CriRuntime(calls);
        boolean ownImageEndpoint = !calls.imageEndpoint().equals(calls.endpoint());
        try {
            runtime.version();
            if (ownImageEndpoint) {
                runtime.listImages();
            }
        } catch (RuntimeException e) {
            runtime.close();
            throw new CriUnavailableException("validate service connection: the CRI runtime at " + calls.endpoint()
                    + (ownImageEndpoint ? " (images at " + calls.imageEndpoint() + ")" : "")
                    + " does not answer: " + e.getMessage(), e);
        }
        return runtime;
    }
}
