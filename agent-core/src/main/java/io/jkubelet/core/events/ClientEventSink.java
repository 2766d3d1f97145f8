package io.jkubelet.core.events;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

import java.util.Map;

/**
 * The apiserver as an {@link EventSink} (client-go's {@code EventSinkImpl}): POST and PATCH of core/v1
 * events. client-go sends its count patch as a strategic merge patch; the patch only sets scalar fields
 * ({@code count}, {@code lastTimestamp}, {@code message}), where a JSON merge patch means the same to the
 * apiserver, and that is what is sent here (fabric8's mock apiserver only understands that one).
 */
public final class ClientEventSink implements EventSink {
    private final KubernetesClient client;

    public ClientEventSink(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Event create(Event event) {
        return client.v1().events().inNamespace(event.getMetadata().getNamespace()).resource(event).create();
    }

    @Override
    public Event patch(Event event, Map<String, Object> patch) {
        String json = client.getKubernetesSerialization().asJson(patch);
        Event patched = client.v1().events().inNamespace(event.getMetadata().getNamespace())
                .withName(event.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE), json);
        if (patched == null) {
            throw new KubernetesClientException("event " + event.getMetadata().getName() + " not found", 404, null);
        }
        return patched;
    }
}
