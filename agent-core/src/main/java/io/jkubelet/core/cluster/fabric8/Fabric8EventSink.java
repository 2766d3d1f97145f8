package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.events.EventSink;

import java.util.Map;

/**
 * The apiserver as an {@link EventSink} (client-go's {@code EventSinkImpl}): POST and PATCH of core/v1
 * events. client-go sends its count patch as a strategic merge patch; the patch only sets scalar fields
 * ({@code count}, {@code lastTimestamp}, {@code message}), where a JSON merge patch means the same to the
 * apiserver, and that is what is sent here (fabric8's mock apiserver only understands that one).
 */
public final class Fabric8EventSink implements EventSink {
    private final KubernetesClient client;

    /** @param client the event client of its own (upstream's {@code EventClient}), not the kubelet's main one */
    public Fabric8EventSink(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Event create(Event event) {
        return Fabric8Errors.call(() -> client.v1().events().inNamespace(event.getMetadata().getNamespace())
                .resource(event).create());
    }

    @Override
    public Event patch(Event event, Map<String, Object> patch) {
        String json = client.getKubernetesSerialization().asJson(patch);
        // Through resource(event), not withName(name): fabric8 reads a resource named only by name before it patches,
        // and the node authorizer lets a kubelet create and patch events but not read them.
        Event patched = Fabric8Errors.call(() -> client.v1().events().inNamespace(event.getMetadata().getNamespace())
                .resource(event).patch(PatchContext.of(PatchType.JSON_MERGE), json));
        if (patched == null) {
            throw new ApiException("event " + event.getMetadata().getName() + " not found", 404, null, null);
        }
        return patched;
    }
}
