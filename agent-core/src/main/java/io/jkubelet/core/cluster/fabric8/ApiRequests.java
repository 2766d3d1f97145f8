package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.jkubelet.core.apierrors.ApiException;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One request to the apiserver over the kubelet's client (its credentials, rate limit and User-Agent), for the calls
 * fabric8's DSL makes in two requests or cannot carry: a delete with a UID precondition, a subresource patch without
 * a read first. The answer comes back whatever its code; only a request that never got one throws.
 */
final class ApiRequests {
    /** A request that takes longer is abandoned; the caller's loop retries. */
    private static final long TIMEOUT_SECONDS = 30;

    private ApiRequests() {
    }

    /**
     * Sends {@code method path} (a path below the server URL, e.g. {@code /api/v1/nodes/n/status}) with a body.
     *
     * @throws ApiException ({@link ApiException#NO_ANSWER}) when the apiserver cannot be reached or does not answer
     *         in time
     */
    static HttpResponse<String> send(KubernetesClient client, String method, String path, String contentType,
                                     String body) {
        String base = client.getMasterUrl().toString().replaceAll("/+$", "");
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder().uri(base + path)
                .method(method, contentType, body).header("Accept", "application/json").build();
        try {
            return client.getHttpClient().sendAsync(request, String.class).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException("interrupted: " + method + " " + path, ApiException.NO_ANSWER, null, e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new ApiException(method + " " + path + ": " + cause, ApiException.NO_ANSWER, null, cause);
        }
    }

    /** {@code Content-Type} of an RFC 7386 merge patch. */
    static final String MERGE_PATCH = "application/merge-patch+json";
    /** {@code Content-Type} of an RFC 6902 JSON patch. */
    static final String JSON_PATCH = "application/json-patch+json";

    /**
     * Sends one PATCH of {@code path} and reads the object the apiserver answers with.
     *
     * @throws ApiException with the apiserver's code and {@code Status} when it refuses the patch, or
     *         {@link ApiException#NO_ANSWER} when it does not answer
     */
    static <T> T patch(KubernetesClient client, String path, String contentType, String patch, Class<T> type) {
        HttpResponse<String> response = send(client, "PATCH", path, contentType, patch);
        String body = response.body();
        if (response.code() / 100 != 2) {
            Status status = null;
            try {
                status = client.getKubernetesSerialization().unmarshal(body, Status.class);
            } catch (RuntimeException e) {
                // not a Status: the raw body goes into the message
            }
            String message = status != null && status.getMessage() != null ? status.getMessage() : body;
            throw new ApiException("PATCH " + path + " failed with " + response.code() + ": " + message,
                    response.code(), status, null);
        }
        return client.getKubernetesSerialization().unmarshal(body, type);
    }

    /** A path segment (a name or namespace) encoded for a URL. */
    static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
