package io.jkubelet.core.runtimeclass;

import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClassBuilder;
import io.jkubelet.core.apierrors.ApiException;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A pod's RuntimeClass resolves to its handler as upstream's manager resolves it: the default to {@code ""}, a listed
 * one to its handler as the lister has it now, a missing one to the apiserver's NotFound; standalone, only the default.
 */
class RuntimeClassManagerTest {
    private final Map<String, RuntimeClass> cluster = new ConcurrentHashMap<>();
    private final RuntimeClassManager manager = RuntimeClassManager.of(name -> Optional.ofNullable(cluster.get(name)));

    private void put(String name, String handler) {
        cluster.put(name, new RuntimeClassBuilder().withNewMetadata().withName(name).endMetadata().withHandler(handler)
                .build());
    }

    @Test
    void noRuntimeClassIsTheRuntimesDefaultHandler() {
        assertThat(manager.lookupRuntimeHandler(null)).isEmpty();
        assertThat(manager.lookupRuntimeHandler("")).isEmpty();
        assertThat(RuntimeClassManager.standalone().lookupRuntimeHandler(null)).isEmpty();
    }

    @Test
    void aListedRuntimeClassGivesItsHandler() {
        put("sandboxed", "runsc");

        assertThat(manager.lookupRuntimeHandler("sandboxed")).isEqualTo("runsc");
    }

    @Test
    void aMissingRuntimeClassIsTheApiserversNotFound() {
        put("other", "runc");

        assertThatThrownBy(() -> manager.lookupRuntimeHandler("deleted"))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(404);
                    assertThat(e.status().orElseThrow().getReason()).isEqualTo("NotFound");
                })
                .hasMessage("runtimeclasses.node.k8s.io \"deleted\" not found");
    }

    @Test
    void eachLookupReadsTheListerAsItIsNow() {
        assertThatThrownBy(() -> manager.lookupRuntimeHandler("late")).isInstanceOf(ApiException.class);

        put("late", "runc");
        assertThat(manager.lookupRuntimeHandler("late")).isEqualTo("runc");

        // Deleted and made again with another handler (the field is immutable: this is how it changes).
        cluster.remove("late");
        put("late", "kata");
        assertThat(manager.lookupRuntimeHandler("late")).isEqualTo("kata");
    }

    @Test
    void standaloneAnyOtherRuntimeClassFailsNamingTheApiserver() {
        assertThatThrownBy(() -> RuntimeClassManager.standalone().lookupRuntimeHandler("sandboxed"))
                .hasMessage("RuntimeClass \"sandboxed\" needs the apiserver, and this node runs standalone");
    }
}
