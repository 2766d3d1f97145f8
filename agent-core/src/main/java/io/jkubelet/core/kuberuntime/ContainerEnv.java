package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.ObjectFieldSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceFieldSelector;
import io.jkubelet.core.kuberuntime.ContainerConfigFactory.ConfigException;
import io.jkubelet.core.objects.ServiceLister;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.runtime.KeyValue;
import io.jkubelet.core.util.Expansion;
import io.jkubelet.core.volume.DownwardApi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A container's environment variables (upstream {@code makeEnvironmentVariables}): {@code envFrom}, {@code env} with
 * {@code $(VAR)} expansion, the downward API's {@code fieldRef} and {@code resourceFieldRef}, ConfigMap and Secret
 * keys, and the service variables.
 */
final class ContainerEnv {
    private final NodeContext node;
    private final EnvRefs envRefs;
    private final ServiceLister services;
    private final Supplier<Map<String, Quantity>> allocatable;

    /** @param allocatable the node's allocatable, which {@code resourceFieldRef} limits a container does not set default to */
    ContainerEnv(NodeContext node, EnvRefs envRefs, ServiceLister services, Supplier<Map<String, Quantity>> allocatable) {
        this.node = node;
        this.envRefs = envRefs;
        this.services = services;
        this.allocatable = allocatable;
    }

    /**
     * Env in kubelet's order (upstream {@code makeEnvironmentVariables}): {@code envFrom}, then {@code env}, each value
     * expanded against the variables before it and the service variables; then the service variables the container
     * does not set itself.
     */
    List<KeyValue> envs(Pod pod, Container c, String podIp) throws ConfigException {
        Boolean links = pod.getSpec().getEnableServiceLinks();
        Map<String, String> serviceEnv = ServiceEnv.forPod(services, pod.getMetadata().getNamespace(), links == null || links);
        Map<String, String> tmp = new LinkedHashMap<>();
        envRefs.envFrom(pod, c, tmp);
        // What $(VAR) sees: the container's variables so far, over the service variables.
        Map<String, String> visible = new HashMap<>(serviceEnv);
        visible.putAll(tmp);
        if (c.getEnv() != null) {
            for (EnvVar e : c.getEnv()) {
                String value;
                if (e.getValueFrom() == null) {
                    value = Expansion.expand(e.getValue() == null ? "" : e.getValue(), visible);
                } else {
                    value = valueFrom(pod, c, e, podIp);
                }
                if (value != null) {
                    tmp.put(e.getName(), value);
                    visible.put(e.getName(), value);
                }
            }
        }
        List<KeyValue> out = new ArrayList<>();
        tmp.forEach((k, v) -> out.add(new KeyValue(k, v)));
        serviceEnv.forEach((k, v) -> {
            if (!tmp.containsKey(k)) {
                out.add(new KeyValue(k, v));
            }
        });
        return out;
    }

    /** The value of a {@code valueFrom} reference, or null when an optional reference is missing (the variable is not set). */
    private String valueFrom(Pod pod, Container c, EnvVar e, String podIp) throws ConfigException {
        EnvVarSource src = e.getValueFrom();
        if (src.getFieldRef() != null) {
            return fieldRef(pod, src.getFieldRef(), podIp, e.getName());
        }
        if (src.getResourceFieldRef() != null) {
            return resourceFieldRef(c, src.getResourceFieldRef());
        }
        if (src.getConfigMapKeyRef() != null) {
            return envRefs.configMapKey(pod, src.getConfigMapKeyRef());
        }
        if (src.getSecretKeyRef() != null) {
            return envRefs.secretKey(pod, src.getSecretKeyRef());
        }
        return "";
    }

    /**
     * Upstream {@code podFieldSelectorRuntimeValue}: the fields only the kubelet knows (node, IPs) here, the pod's
     * metadata as the downward API volume reads it ({@code fieldpath.ExtractFieldPathAsString}).
     */
    private String fieldRef(Pod pod, ObjectFieldSelector sel, String podIp, String envName) throws ConfigException {
        String path = sel.getFieldPath();
        List<String> hostIps = node.hostIps();
        String hostIp = hostIps.isEmpty() ? "" : hostIps.get(0);
        switch (path) {
            case "spec.terminationGracePeriodSeconds": {
                Long g = pod.getSpec().getTerminationGracePeriodSeconds();
                return Long.toString(g == null ? 30 : g);
            }
            case "status.hostIPs":
                return String.join(",", hostIps);
            case "status.podIP":
                return PodSpecs.hostNetwork(pod) ? hostIp : podIp == null ? "" : podIp;
            case "status.podIPs":
                return PodSpecs.hostNetwork(pod) ? String.join(",", hostIps) : podIp == null ? "" : podIp;
            default:
                try {
                    return DownwardApi.fieldValue(pod, path, node.nodeName(), hostIps);
                } catch (IllegalArgumentException e) {
                    throw new ConfigException("env " + envName + ": " + e.getMessage());
                }
        }
    }

    private String resourceFieldRef(Container c, ResourceFieldSelector sel) throws ConfigException {
        try {
            return DownwardApi.containerResourceValue(c, sel, allocatable.get());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }
}
