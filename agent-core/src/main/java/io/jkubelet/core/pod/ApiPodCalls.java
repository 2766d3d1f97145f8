package io.jkubelet.core.pod;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The pod calls whose options fabric8's DSL does not carry: a delete with a UID precondition, which the kubelet
 * uses for every delete of a pod it did not just read (upstream {@code DeleteOptions.Preconditions.UID}), so that a
 * pod re-created under the same name is never deleted by mistake.
 */
public final class ApiPodCalls {
    /** A request that takes longer is abandoned; the caller's loop retries. */
    private static final long TIMEOUT_SECONDS = 30;

    private final KubernetesClient client;

    public ApiPodCalls(KubernetesClient client) {
        this.client = client;
    }

    /** Outcome of a delete: done, already gone, or the UID no longer matches (another pod of that name). */
    public enum DeleteResult { DELETED, NOT_FOUND, CONFLICT }

    /**
     * Deletes {@code namespace/name} with {@code gracePeriodSeconds}, only if its UID is still {@code uid}.
     *
     * @throws KubernetesClientException on any other answer or when the apiserver cannot be reached
     */
    public DeleteResult deletePod(String namespace, String name, String uid, long gracePeriodSeconds) {
        String body = "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"gracePeriodSeconds\":" + gracePeriodSeconds
                + ",\"preconditions\":{\"uid\":\"" + uid + "\"}}";
        String url = podUrl(namespace, name);
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder().uri(url)
                .method("DELETE", "application/json", body).build();
        HttpResponse<String> response;
        try {
            response = client.getHttpClient().sendAsync(request, String.class).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted deleting pod " + namespace + "/" + name, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new KubernetesClientException("cannot delete pod " + namespace + "/" + name + ": "
                    + (e.getCause() == null ? e : e.getCause()).toString(), e);
        }
        return switch (response.code()) {
            case 200, 202 -> DeleteResult.DELETED;
            case 404 -> DeleteResult.NOT_FOUND;
            case 409 -> DeleteResult.CONFLICT;
            default -> throw new KubernetesClientException("deleting pod " + namespace + "/" + name + ": HTTP "
                    + response.code() + ": " + response.body(), response.code(), null);
        };
    }

    private String podUrl(String namespace, String name) {
        String base = client.getMasterUrl().toString();
        if (!base.endsWith("/")) {
            base += "/";
        }
        return base + "api/v1/namespaces/" + encode(namespace) + "/pods/" + encode(name);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
