package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.pod.PodDeleter.DeleteResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@EnableKubernetesMockClient
class Fabric8PodDeleterTest {
    KubernetesMockServer server;
    KubernetesClient client;

    @Test
    void deletesWithTheGracePeriodAndTheUidAsPrecondition() throws Exception {
        server.expect().delete().withPath("/api/v1/namespaces/ns%201/pods/web").andReturn(200, new StatusBuilder().build()).once();

        assertThat(new Fabric8PodDeleter(client).deletePod("ns 1", "web", "uid-1", 0)).isEqualTo(DeleteResult.DELETED);

        RecordedRequest r = server.takeRequest();
        assertThat(r.getMethod()).isEqualTo("DELETE");
        assertThat(r.getBody().readUtf8()).isEqualTo(
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"gracePeriodSeconds\":0,\"preconditions\":{\"uid\":\"uid-1\"}}");
    }

    @Test
    void aGonePodAndAnotherPodOfTheNameAreToldApart() {
        server.expect().delete().withPath("/api/v1/namespaces/default/pods/gone").andReturn(404, new StatusBuilder().build()).once();
        server.expect().delete().withPath("/api/v1/namespaces/default/pods/recreated").andReturn(409, new StatusBuilder().build()).once();
        server.expect().delete().withPath("/api/v1/namespaces/default/pods/broken").andReturn(500, "etcd down").once();
        // The kubelet's client does not retry (KubeClients): each loop has its own back-off.
        Fabric8PodDeleter calls = new Fabric8PodDeleter(server.createClient(b -> b.editOrNewConfig().withRequestRetryBackoffLimit(0).endConfig()));

        assertThat(calls.deletePod("default", "gone", "u", 0)).isEqualTo(DeleteResult.NOT_FOUND);
        assertThat(calls.deletePod("default", "recreated", "u", 0)).isEqualTo(DeleteResult.CONFLICT);
        assertThatThrownBy(() -> calls.deletePod("default", "broken", "u", 0))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(500))
                .hasMessageContaining("HTTP 500");
    }
}
