package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.jkubelet.core.objects.ServiceLister;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The service environment variables of a container (upstream's {@code getServiceEnvVarMap} and
 * {@code envvars.FromServices}): for each Service of the pod's namespace with a cluster IP when the pod's
 * {@code enableServiceLinks} is true, and for the {@code kubernetes} Service of the {@code default} namespace always,
 * {@code <NAME>_SERVICE_HOST}, {@code <NAME>_SERVICE_PORT[_<PORT NAME>]} and Docker's link variables
 * {@code <NAME>_PORT}, {@code <NAME>_PORT_<port>_<PROTO>[_PROTO|_PORT|_ADDR]}. In-cluster clients find the
 * apiserver through {@code KUBERNETES_SERVICE_HOST} and {@code KUBERNETES_SERVICE_PORT}.
 */
final class ServiceEnv {
    /** Upstream's {@code masterServiceNamespace} (the {@code --master-service-namespace} default) and its services. */
    static final String MASTER_SERVICE_NAMESPACE = "default";
    static final String MASTER_SERVICE = "kubernetes";

    private ServiceEnv() {}

    /**
     * The variables for a pod in {@code namespace}, by name.
     *
     * @throws ContainerConfigFactory.ConfigException before the Services have been read once (upstream waits too:
     *     a container started earlier would miss them for good)
     */
    static Map<String, String> forPod(ServiceLister services, String namespace, boolean enableServiceLinks)
            throws ContainerConfigFactory.ConfigException {
        if (!services.hasSynced()) {
            throw new ContainerConfigFactory.ConfigException("services have not yet been read at least once, cannot construct envvars");
        }
        Map<String, Service> byName = new TreeMap<>();
        for (Service s : services.list()) {
            if (!hasClusterIp(s)) {
                continue;
            }
            String ns = s.getMetadata().getNamespace();
            String name = s.getMetadata().getName();
            if (MASTER_SERVICE_NAMESPACE.equals(ns) && MASTER_SERVICE.equals(name)) {
                byName.putIfAbsent(name, s);
            } else if (ns.equals(namespace) && enableServiceLinks) {
                // A Service of the pod's own namespace wins over the master service of the same name.
                byName.put(name, s);
            }
        }
        Map<String, String> env = new LinkedHashMap<>();
        byName.values().forEach(s -> addVariables(s, env));
        return env;
    }

    static boolean hasClusterIp(Service s) {
        String ip = s.getSpec() == null ? null : s.getSpec().getClusterIP();
        return ip != null && !ip.isEmpty() && !"None".equals(ip);
    }

    private static void addVariables(Service s, Map<String, String> env) {
        String prefix = variableName(s.getMetadata().getName());
        String ip = s.getSpec().getClusterIP();
        List<ServicePort> ports = s.getSpec().getPorts() == null ? List.of() : s.getSpec().getPorts();
        env.put(prefix + "_SERVICE_HOST", ip);
        if (ports.isEmpty()) {
            return; // validation gives every Service with a cluster IP a port; nothing more to say without one
        }
        String servicePort = prefix + "_SERVICE_PORT";
        env.put(servicePort, Integer.toString(ports.getFirst().getPort()));
        for (ServicePort p : ports) {
            if (p.getName() != null && !p.getName().isEmpty()) {
                env.put(servicePort + "_" + variableName(p.getName()), Integer.toString(p.getPort()));
            }
        }
        for (int i = 0; i < ports.size(); i++) {
            ServicePort p = ports.get(i);
            String protocol = p.getProtocol() == null || p.getProtocol().isEmpty() ? "TCP" : p.getProtocol();
            String lower = protocol.toLowerCase(Locale.ROOT);
            String hostPort = (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + p.getPort();
            if (i == 0) {
                env.put(prefix + "_PORT", lower + "://" + hostPort); // Docker special-cases the first port
            }
            String portPrefix = prefix + "_PORT_" + p.getPort() + "_" + protocol.toUpperCase(Locale.ROOT);
            env.put(portPrefix, lower + "://" + hostPort);
            env.put(portPrefix + "_PROTO", lower);
            env.put(portPrefix + "_PORT", Integer.toString(p.getPort()));
            env.put(portPrefix + "_ADDR", ip);
        }
    }

    /** Upstream's {@code makeEnvVariableName}: upper case, dashes to underscores. */
    static String variableName(String s) {
        return s.replace('-', '_').toUpperCase(Locale.ROOT);
    }
}
