package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.GoDuration;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.container.GCPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * The flags that stay flags (upstream {@code KubeletFlags.AddFlags}), jkubelet's own, and cobra's {@code --version}
 * and {@code --help}; with {@link ConfigFlags}, every flag of the command. A default here is the one the command line
 * falls back to and the one its help shows.
 */
final class KubeletFlagSpecs {

    static final String NAME = "jkubelet";

    static final FlagSpec CONFIG = FlagSpec.of("config", "string", "Path to a KubeletConfiguration "
            + "file (kubelet.config.k8s.io/v1beta1, YAML or JSON). Flags given on the command line override "
            + "its values; values neither in the file nor on the command line take the v1beta1 defaults.");
    static final FlagSpec CONFIG_DIR = FlagSpec.of("config-dir", "string", "Path to a directory of "
            + "drop-ins: every *.conf file in it (in lexical order, sub-directories included) is a KubeletConfiguration "
            + "merged over the --config file (scalars and lists replaced, structs and maps merged per key); flags "
            + "given on the command line override them. [default='']");
    static final FlagSpec KUBECONFIG = FlagSpec.of("kubeconfig", "string", "Path to a kubeconfig file "
            + "saying how to connect to the apiserver. Without it the kubelet runs standalone.");
    static final FlagSpec BOOTSTRAP_KUBECONFIG = FlagSpec.of("bootstrap-kubeconfig", "string",
            "Path to a kubeconfig file used to get a client certificate for the kubelet.");
    static final FlagSpec HOSTNAME_OVERRIDE = FlagSpec.of("hostname-override", "string",
            "The node name to use instead of the host name.");
    static final FlagSpec NODE_IP = FlagSpec.of("node-ip", "string", "IP address (or comma-separated "
            + "dual-stack IP addresses) of the node. If unset, kubelet will use the node's default IPv4 address, if any, "
            + "or its default IPv6 address if it has no IPv4 addresses. You can pass '::' to make it prefer the default "
            + "IPv6 address rather than the default IPv4 address.");
    static final FlagSpec ROOT_DIR = FlagSpec.of("root-dir", "string", "Directory for the kubelet's "
            + "files (volume mounts, etc.).").withDefault(KubeletFlags.DEFAULT_ROOT_DIRECTORY);
    static final FlagSpec CERT_DIR = FlagSpec.of("cert-dir", "string", "Directory of the TLS "
            + "certificates; ignored when --tls-cert-file and --tls-private-key-file are given.")
            .withDefault(KubeletFlags.DEFAULT_CERT_DIRECTORY);
    static final FlagSpec NODE_LABELS = FlagSpec.of("node-labels", "key=value", "Labels to add when "
            + "registering the node, as comma-separated key=value pairs. Repeatable. Labels in the 'kubernetes.io' "
            + "namespace must begin with an allowed prefix (kubelet.kubernetes.io, node.kubernetes.io) or be in the "
            + "specifically allowed set (beta.kubernetes.io/arch, beta.kubernetes.io/instance-type, beta.kubernetes.io/os, "
            + "failure-domain.beta.kubernetes.io/region, failure-domain.beta.kubernetes.io/zone, kubernetes.io/arch, "
            + "kubernetes.io/hostname, kubernetes.io/os, node.kubernetes.io/instance-type, topology.kubernetes.io/region, "
            + "topology.kubernetes.io/zone)");
    static final FlagSpec CONTAINER_LOGS_DIR = FlagSpec.of("container-logs-dir", "string",
            "(jkubelet) Directory of the per-container log symlinks.").withDefault(KubeletFlags.DEFAULT_CONTAINER_LOGS_DIR);
    static final FlagSpec POD_INFRA_CONTAINER_IMAGE = FlagSpec.of("pod-infra-container-image", "string",
            "The image of each pod's sandbox container.").withDefault(KubeletFlags.DEFAULT_POD_INFRA_CONTAINER_IMAGE);
    /** What pflag says of the container GC flags (upstream {@code KubeletFlags}, deprecated since v1.x). */
    private static final String USE_EVICTION = "Use --eviction-hard or --eviction-soft instead. Will be removed in a "
            + "future version.";
    static final FlagSpec MINIMUM_CONTAINER_TTL = FlagSpec.of("minimum-container-ttl-duration", "duration",
            "Minimum age for a finished container before it is garbage collected.  Examples: '300ms', '10s' or "
                    + "'2h45m'").deprecated(USE_EVICTION).withDefault(GoDuration.format(GCPolicy.DEFAULT.minAge()));
    static final FlagSpec MAX_DEAD_PER_CONTAINER = FlagSpec.of("maximum-dead-containers-per-container", "int32",
            "Maximum number of old instances to retain per container.  Each container takes up some disk space.")
            .deprecated(USE_EVICTION).withDefault(String.valueOf(GCPolicy.DEFAULT.maxPerPodContainer()));
    static final FlagSpec MAX_DEAD_CONTAINERS = FlagSpec.of("maximum-dead-containers", "int32",
            "Maximum number of old instances of containers to retain globally.  Each container takes up some disk "
                    + "space. To disable, set to a negative number.").deprecated(USE_EVICTION)
            .withDefault(String.valueOf(GCPolicy.DEFAULT.maxContainers()));
    static final FlagSpec CADVISOR_PORT = FlagSpec.of("cadvisor-port", "int32", "The port of the node's "
            + "dashboard over plain HTTP with no authentication, where cAdvisor's page was (conventionally "
            + KubeletFlags.CADVISOR_PORT_BY_CONVENTION + "); bound to 127.0.0.1 unless --address is given; 0 disables "
            + "it. The dashboard is also at /dashboard/ on the secure port and the read-only port.").withDefault("0");
    static final FlagSpec IMAGE_CREDENTIAL_PROVIDER_CONFIG = FlagSpec.of("image-credential-provider-config",
            "string", "The path to the credential provider plugin config file.");
    static final FlagSpec IMAGE_CREDENTIAL_PROVIDER_BIN_DIR = FlagSpec.of("image-credential-provider-bin-dir",
            "string", "The path to the directory where credential provider plugin binaries are located.");
    static final FlagSpec VERSION = new FlagSpec("version", null, "raw", false,
            "Print version information and quit; --version=raw prints more as JSON.");
    static final FlagSpec HELP = new FlagSpec("help", "h", "bool", true, "Help for " + NAME + ".");

    /** The flags of upstream's {@code KubeletFlags} and jkubelet's own, in the order their warnings come. */
    static final List<FlagSpec> KUBELET_FLAGS = List.of(CONFIG, CONFIG_DIR, KUBECONFIG, BOOTSTRAP_KUBECONFIG,
            HOSTNAME_OVERRIDE, NODE_IP, ROOT_DIR, CERT_DIR, NODE_LABELS, CONTAINER_LOGS_DIR,
            POD_INFRA_CONTAINER_IMAGE, MINIMUM_CONTAINER_TTL, MAX_DEAD_PER_CONTAINER, MAX_DEAD_CONTAINERS, CADVISOR_PORT,
            IMAGE_CREDENTIAL_PROVIDER_CONFIG, IMAGE_CREDENTIAL_PROVIDER_BIN_DIR);

    private KubeletFlagSpecs() {
    }

    /** Every flag that sets something: {@link #KUBELET_FLAGS}, then every flag of a configuration field. */
    static List<FlagSpec> settingFlags() {
        List<FlagSpec> all = new ArrayList<>(KUBELET_FLAGS);
        ConfigFlags.ALL.forEach(flag -> all.add(flag.spec()));
        return all;
    }

    /** Every flag of the command: {@link #settingFlags()}, then {@code --version} and {@code --help}. */
    static List<FlagSpec> all() {
        List<FlagSpec> all = settingFlags();
        all.add(VERSION);
        all.add(HELP);
        return all;
    }

    /**
     * {@link #all()} as the help shows them: each flag of a configuration field with its default read off
     * {@code flagDefaults}, the configuration the flags start from ({@link ConfigFlagDefaults}).
     */
    static List<FlagSpec> forHelp(KubeletConfiguration flagDefaults) {
        List<FlagSpec> all = new ArrayList<>(KUBELET_FLAGS);
        ConfigFlags.ALL.forEach(flag -> all.add(flag.spec().withDefault(flag.defaultValue(flagDefaults))));
        all.add(VERSION);
        all.add(HELP);
        return all;
    }
}
