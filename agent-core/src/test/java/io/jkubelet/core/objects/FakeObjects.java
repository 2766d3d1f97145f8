package io.jkubelet.core.objects;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** In-memory ConfigMaps and Secrets, as the apiserver would answer for them. */
public final class FakeObjects {
    private final Map<String, ConfigMap> configMaps = new ConcurrentHashMap<>();
    private final Map<String, Secret> secrets = new ConcurrentHashMap<>();

    public FakeObjects configMap(String ns, String name, Map<String, String> data) {
        configMaps.put(ns + "/" + name, new ConfigMapBuilder().withNewMetadata().withNamespace(ns).withName(name)
                .endMetadata().withData(data).build());
        return this;
    }

    public FakeObjects secret(String ns, String name, Map<String, String> plain) {
        Map<String, String> data = new LinkedHashMap<>();
        plain.forEach((k, v) -> data.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
        secrets.put(ns + "/" + name, new SecretBuilder().withNewMetadata().withNamespace(ns).withName(name)
                .endMetadata().withData(data).build());
        return this;
    }

    private final java.util.List<io.fabric8.kubernetes.api.model.Service> services = new java.util.ArrayList<>();

    public PodObjects podObjects(TokenManager tokens) {
        return new PodObjects(
                (ns, name) -> {
                    ConfigMap cm = configMaps.get(ns + "/" + name);
                    if (cm == null) {
                        throw ObjectException.notFound("configmap", name);
                    }
                    return cm;
                },
                (ns, name) -> {
                    Secret s = secrets.get(ns + "/" + name);
                    if (s == null) {
                        throw ObjectException.notFound("secret", name);
                    }
                    return s;
                },
                tokens, ServiceLister.of(services), true);
    }

    /** A Service with a cluster IP and ports, as {@code kubectl expose} makes one. */
    public FakeObjects service(String ns, String name, String clusterIp, io.fabric8.kubernetes.api.model.ServicePort... ports) {
        services.add(new io.fabric8.kubernetes.api.model.ServiceBuilder().withNewMetadata().withNamespace(ns).withName(name)
                .endMetadata().withNewSpec().withClusterIP(clusterIp).withPorts(ports).endSpec().build());
        return this;
    }

    public PodObjects podObjects() {
        return podObjects(new TokenManager((ns, sa, tr) -> {
            throw new ObjectException("no tokens here", false);
        }, Clock.systemUTC()));
    }
}
