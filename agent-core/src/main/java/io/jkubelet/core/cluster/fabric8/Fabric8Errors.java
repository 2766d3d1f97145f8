package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jkubelet.core.apierrors.ApiException;

import java.util.function.Supplier;

/** fabric8's client exceptions as the ports' {@link ApiException}, message and cause kept for the consumers' logs. */
final class Fabric8Errors {
    private Fabric8Errors() {
    }

    /** Runs one fabric8 call; its client exception comes out as an {@link ApiException}. */
    static <T> T call(Supplier<T> call) {
        try {
            return call.get();
        } catch (KubernetesClientException e) {
            throw translate(e);
        }
    }

    /** fabric8 says -1 (or 0) for a request that got no answer. */
    static ApiException translate(KubernetesClientException e) {
        return new ApiException(e.getMessage(), Math.max(e.getCode(), ApiException.NO_ANSWER), e.getStatus(), e.getCause());
    }
}
