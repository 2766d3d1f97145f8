package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.runtimeclass.RuntimeClassManager;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The runtimeclass manager on the RuntimeClass informer: a RuntimeClass that was there before is found from the first
 * list, one made later once the watch brings it, one deleted is NotFound again, and one made again with another
 * handler gives the new handler.
 */
@EnableKubernetesMockClient(crud = true)
class Fabric8RuntimeClassListerTest {
    KubernetesMockServer server;
    KubernetesClient client;

    private RuntimeClass runtimeClass(String name, String handler) {
        return new RuntimeClassBuilder().withNewMetadata().withName(name).endMetadata().withHandler(handler).build();
    }

    private static String handlerOrMissing(RuntimeClassManager manager, String name) {
        try {
            return manager.lookupRuntimeHandler(name);
        } catch (ApiException notFound) {
            return "<" + notFound.getMessage() + ">";
        }
    }

    @Test
    void foundMissingAndMadeAgainAsTheApiserverHasThem() {
        client.runtimeClasses().resource(runtimeClass("before", "runc")).create();
        try (Fabric8RuntimeClassLister lister = new Fabric8RuntimeClassLister(client)) {
            RuntimeClassManager manager = RuntimeClassManager.of(lister);
            await().atMost(Duration.ofSeconds(10)).until(() -> handlerOrMissing(manager, "before").equals("runc"));

            assertThatThrownBy(() -> manager.lookupRuntimeHandler("sandboxed"))
                    .hasMessage("runtimeclasses.node.k8s.io \"sandboxed\" not found");
            client.runtimeClasses().resource(runtimeClass("sandboxed", "runsc")).create();
            await().atMost(Duration.ofSeconds(10)).until(() -> handlerOrMissing(manager, "sandboxed").equals("runsc"));

            client.runtimeClasses().withName("sandboxed").delete();
            await().atMost(Duration.ofSeconds(10)).until(() -> handlerOrMissing(manager, "sandboxed")
                    .equals("<runtimeclasses.node.k8s.io \"sandboxed\" not found>"));

            client.runtimeClasses().resource(runtimeClass("sandboxed", "kata")).create();
            await().atMost(Duration.ofSeconds(10)).until(() -> handlerOrMissing(manager, "sandboxed").equals("kata"));
            assertThat(handlerOrMissing(manager, "before")).isEqualTo("runc");
        }
    }
}
