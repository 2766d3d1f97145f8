package io.jkubelet.cmd;

import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.credentialprovider.plugin.CredentialProviderPlugins;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings that stay command-line flags rather than {@code KubeletConfiguration} fields
 * (upstream {@code KubeletFlags}), plus jkubelet's own. Empty strings mean "not given".
 *
 * @param kubeletConfigFile      {@code --config}: the configuration file, or empty
 * @param kubeconfig             {@code --kubeconfig}: how to reach the apiserver; empty means standalone
 * @param bootstrapKubeconfig    {@code --bootstrap-kubeconfig}: credentials to request a client certificate
 * @param hostnameOverride       {@code --hostname-override}: the node name instead of the host name
 * @param nodeIp                 {@code --node-ip}: one IP, or two comma-separated (dual-stack), or empty
 * @param rootDirectory          {@code --root-dir}: kubelet state ({@value KubeletFlags#DEFAULT_ROOT_DIRECTORY})
 * @param certDirectory          {@code --cert-dir}: TLS certificates ({@value KubeletFlags#DEFAULT_CERT_DIRECTORY})
 * @param nodeLabels             {@code --node-labels}: labels added when the node registers
 * @param containerLogsDir       {@code --container-logs-dir} (jkubelet): the legacy per-container log
 *                               symlinks ({@value KubeletFlags#DEFAULT_CONTAINER_LOGS_DIR})
 * @param podInfraContainerImage {@code --pod-infra-container-image}: the sandbox image
 *                               ({@value KubeletFlags#DEFAULT_POD_INFRA_CONTAINER_IMAGE}, a local image)
 * @param containerGcPolicy      the deprecated {@code --minimum-container-ttl-duration},
 *                               {@code --maximum-dead-containers-per-container} and {@code --maximum-dead-containers}
 * @param verbosity              {@code -v}: effective log verbosity (the configuration's logging.verbosity)
 * @param cadvisorPort           {@code --cadvisor-port}: where the dashboard is served over plain HTTP, as
 *                               cAdvisor's page was; 0 (the default) turns it off
 * @param cadvisorAddress        where that port is bound: {@code --address} when given, else 127.0.0.1
 * @param credentialProviders    {@code --image-credential-provider-config} and {@code --image-credential-provider-bin-dir}
 */
public record KubeletFlags(
        String kubeletConfigFile,
        String kubeconfig,
        String bootstrapKubeconfig,
        String hostnameOverride,
        String nodeIp,
        String rootDirectory,
        String certDirectory,
        Map<String, String> nodeLabels,
        String containerLogsDir,
        String podInfraContainerImage,
        GCPolicy containerGcPolicy,
        long verbosity,
        int cadvisorPort,
        String cadvisorAddress,
        CredentialProviderPlugins.Flags credentialProviders) {

    /** The port upstream's {@code --cadvisor-port} defaulted to before 1.12 removed it. */
    public static final int CADVISOR_PORT_BY_CONVENTION = 4194;
    /** Unauthenticated, the dashboard's port stays on the node unless {@code --address} says otherwise. */
    public static final String DEFAULT_CADVISOR_ADDRESS = "127.0.0.1";

    public static final String DEFAULT_ROOT_DIRECTORY = "/var/lib/kubelet";
    public static final String DEFAULT_CERT_DIRECTORY = "/var/lib/kubelet/pki";
    /** kubelet.go's DefaultContainerLogsDir. */
    public static final String DEFAULT_CONTAINER_LOGS_DIR = "/var/log/containers";
    /** A local image (made by bin/ scripts): this agent never pulls its sandbox image from a registry. */
    public static final String DEFAULT_POD_INFRA_CONTAINER_IMAGE = "jkubelet/pause:3.9";

    public KubeletFlags {
        nodeLabels = Collections.unmodifiableMap(new LinkedHashMap<>(nodeLabels));
    }

    /** Flags without credential provider plugins. */
    public KubeletFlags(String kubeletConfigFile, String kubeconfig, String bootstrapKubeconfig, String hostnameOverride,
                        String nodeIp, String rootDirectory, String certDirectory, Map<String, String> nodeLabels,
                        String containerLogsDir, String podInfraContainerImage, GCPolicy containerGcPolicy, long verbosity,
                        int cadvisorPort, String cadvisorAddress) {
        this(kubeletConfigFile, kubeconfig, bootstrapKubeconfig, hostnameOverride, nodeIp, rootDirectory, certDirectory,
                nodeLabels, containerLogsDir, podInfraContainerImage, containerGcPolicy, verbosity, cadvisorPort,
                cadvisorAddress, CredentialProviderPlugins.Flags.NONE);
    }

    /** Flags without the dashboard's own port. */
    public KubeletFlags(String kubeletConfigFile, String kubeconfig, String bootstrapKubeconfig, String hostnameOverride,
                        String nodeIp, String rootDirectory, String certDirectory, Map<String, String> nodeLabels,
                        String containerLogsDir, String podInfraContainerImage, GCPolicy containerGcPolicy, long verbosity) {
        this(kubeletConfigFile, kubeconfig, bootstrapKubeconfig, hostnameOverride, nodeIp, rootDirectory, certDirectory,
                nodeLabels, containerLogsDir, podInfraContainerImage, containerGcPolicy, verbosity, 0, DEFAULT_CADVISOR_ADDRESS);
    }

    /** The node IPs given with {@code --node-ip}, in order; empty when none. */
    public List<String> nodeIps() {
        List<String> ips = new ArrayList<>();
        if (!nodeIp.isEmpty()) {
            for (String ip : nodeIp.split(",")) {
                ips.add(ip.trim());
            }
        }
        return ips;
    }
}
