package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.jkubelet.core.objects.FakeObjects;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.objects.ServiceLister;
import io.jkubelet.core.runtime.KeyValue;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The service environment variables of containers, as upstream's kubelet makes them. */
class ServiceEnvTest {
    private final NodeContext node = new NodeContext("node-a", List.of("192.168.1.10"), Path.of("/var/log/pods"),
            Path.of("/var/log/containers"), "jkubelet/pause:3.9", List.of(), "cluster.local", x -> x);
    private final FakeObjects objects = new FakeObjects()
            .service("default", "kubernetes", "10.0.0.1", port("https", 443, "TCP"))
            .service("prod", "web-front", "10.0.0.20", port(null, 80, null), port("metrics", 9090, "TCP"))
            .service("prod", "dns", "10.0.0.53", port("dns", 53, "UDP"))
            .service("prod", "headless", "None", port(null, 80, null))
            .service("other", "db", "10.0.0.30", port(null, 5432, null));

    private static ServicePort port(String name, int port, String protocol) {
        return new ServicePortBuilder().withName(name).withPort(port).withProtocol(protocol).build();
    }

    private static Pod pod(String ns, Boolean links, Container c) {
        return new PodBuilder().withNewMetadata().withName("app").withNamespace(ns).withUid("u1").endMetadata()
                .withNewSpec().withEnableServiceLinks(links).withContainers(c).endSpec().build();
    }

    private static Container container() {
        return new ContainerBuilder().withName("c").withImage("busybox").build();
    }

    private Map<String, String> env(Pod pod, PodObjects o) throws Exception {
        ContainerConfigFactory f = new ContainerConfigFactory(node, (p, c) -> 0, o, (r, t, re, m) -> { }, Map::of);
        Container c = pod.getSpec().getContainers().getFirst();
        Map<String, String> env = new java.util.LinkedHashMap<>();
        for (KeyValue kv : f.containerConfig(pod, c, 0, "10.1.0.5", Map.of(), null, null, ImageUser.ROOT).envs()) {
            assertThat(env.put(kv.key(), kv.value())).as("duplicate " + kv.key()).isNull();
        }
        return env;
    }

    @Test
    void servicesOfThePodsNamespaceAndTheMasterServiceGiveVariables() throws Exception {
        Map<String, String> env = env(pod("prod", true, container()), objects.podObjects());
        assertThat(env).containsEntry("KUBERNETES_SERVICE_HOST", "10.0.0.1")
                .containsEntry("KUBERNETES_SERVICE_PORT", "443")
                .containsEntry("KUBERNETES_SERVICE_PORT_HTTPS", "443")
                .containsEntry("KUBERNETES_PORT", "tcp://10.0.0.1:443")
                .containsEntry("KUBERNETES_PORT_443_TCP", "tcp://10.0.0.1:443")
                .containsEntry("KUBERNETES_PORT_443_TCP_PROTO", "tcp")
                .containsEntry("KUBERNETES_PORT_443_TCP_PORT", "443")
                .containsEntry("KUBERNETES_PORT_443_TCP_ADDR", "10.0.0.1")
                // dashes become underscores; the first port may be unnamed, the named ones get their own variable
                .containsEntry("WEB_FRONT_SERVICE_HOST", "10.0.0.20")
                .containsEntry("WEB_FRONT_SERVICE_PORT", "80")
                .containsEntry("WEB_FRONT_SERVICE_PORT_METRICS", "9090")
                .containsEntry("WEB_FRONT_PORT", "tcp://10.0.0.20:80")
                .containsEntry("WEB_FRONT_PORT_9090_TCP", "tcp://10.0.0.20:9090")
                .containsEntry("WEB_FRONT_PORT_9090_TCP_ADDR", "10.0.0.20")
                .containsEntry("DNS_PORT", "udp://10.0.0.53:53")
                .containsEntry("DNS_PORT_53_UDP_PROTO", "udp");
        // Headless services and other namespaces' services give nothing.
        assertThat(env.keySet()).noneMatch(k -> k.startsWith("HEADLESS_") || k.startsWith("DB_"));
        assertThat(env).hasSize(8 + 12 + 8);
    }

    @Test
    void withoutServiceLinksOnlyTheMasterServiceRemains() throws Exception {
        Map<String, String> env = env(pod("prod", false, container()), objects.podObjects());
        assertThat(env.keySet()).allMatch(k -> k.startsWith("KUBERNETES_")).contains("KUBERNETES_SERVICE_HOST");
        // The master service is only the default namespace's: another namespace's "kubernetes" is an ordinary one.
        FakeObjects elsewhere = new FakeObjects().service("prod", "kubernetes", "10.0.0.99", port(null, 443, null));
        assertThat(env(pod("prod", false, container()), elsewhere.podObjects())).isEmpty();
        assertThat(env(pod("prod", true, container()), elsewhere.podObjects())).containsEntry("KUBERNETES_SERVICE_HOST", "10.0.0.99");
    }

    @Test
    void theContainersOwnVariablesWinAndMayReferToServiceVariables() throws Exception {
        Container c = new ContainerBuilder(container())
                .addNewEnv().withName("KUBERNETES_SERVICE_HOST").withValue("override").endEnv()
                .addNewEnv().withName("FRONT").withValue("http://$(WEB_FRONT_SERVICE_HOST):$(WEB_FRONT_SERVICE_PORT)").endEnv()
                .build();
        var envs = new ContainerConfigFactory(node, (p, x) -> 0, objects.podObjects(), (r, t, re, m) -> { }, Map::of)
                .containerConfig(pod("prod", true, c), c, 0, "10.1.0.5", Map.of(), null, null, ImageUser.ROOT).envs();
        assertThat(envs.subList(0, 2)).containsExactly(new KeyValue("KUBERNETES_SERVICE_HOST", "override"),
                new KeyValue("FRONT", "http://10.0.0.20:80"));
        assertThat(envs).filteredOn(kv -> kv.key().equals("KUBERNETES_SERVICE_HOST")).hasSize(1);
    }

    @Test
    void beforeTheServicesAreReadNoContainerEnvIsMade() {
        PodObjects o = objects.podObjects();
        PodObjects unsynced = new PodObjects(o.configMaps(), o.secrets(), o.tokens(), new ServiceLister() {
            @Override
            public boolean hasSynced() {
                return false;
            }

            @Override
            public List<Service> list() {
                return List.of();
            }
        }, true);
        assertThatThrownBy(() -> env(pod("prod", true, container()), unsynced))
                .hasMessage("services have not yet been read at least once, cannot construct envvars");
    }

    @Test
    void aStandaloneNodeGivesNoServiceVariables() throws Exception {
        assertThat(env(pod("prod", true, container()), PodObjects.standalone())).isEmpty();
    }
}
