package io.jkubelet.core.config.validation;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Lifecycle;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Validates a pod from a static source before the kubelet runs it: the checks of the apiserver's
 * {@code ValidatePodCreate} that matter on a node, with its field paths and messages.
 *
 * <p>What is checked: metadata (name a DNS subdomain, namespace a DNS label, label and annotation
 * keys and values); at least one container; container names DNS labels, unique across init and app
 * containers; images present and valid references; resource names and quantities, requests not above
 * limits; ports; the enumerated fields ({@code restartPolicy}, {@code dnsPolicy},
 * {@code imagePullPolicy}, {@code terminationMessagePolicy}); volumes (names unique, one source
 * each) and volume mounts (naming a volume, unique mount paths); probes and lifecycle handlers
 * (exactly one handler, thresholds); environment variable names. Stateless and thread-safe.
 *
 * <p>One deliberate difference: the apiserver does not check the image reference grammar (a bad
 * reference surfaces later as {@code InvalidImageName}); a static pod is rejected here with the
 * reason, because nothing else would ever tell the author.
 */
public final class PodValidator {

    static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
    static final List<String> DNS_POLICIES = List.of("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None");
    static final List<String> PULL_POLICIES = List.of("Always", "IfNotPresent", "Never");
    static final List<String> TERMINATION_MESSAGE_POLICIES = List.of("File", "FallbackToLogsOnError");
    static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
    static final List<String> URI_SCHEMES = List.of("HTTP", "HTTPS");
    static final List<String> STANDARD_CONTAINER_RESOURCES = List.of("cpu", "memory", "ephemeral-storage");
    private static final int TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
    private static final Pattern ENV_VAR_NAME = Pattern.compile("[\\x20-\\x7e&&[^=]]+");

    /** Only to list which volume sources a volume declares. */
    private static final JsonMapper TREES = JsonMapper.builder().build();

    private PodValidator() {
    }

    /** Everything wrong with {@code pod}, in field order; empty when it may run. */
    public static List<FieldError> validatePodCreate(Pod pod) {
        List<FieldError> errors = new ArrayList<>();
        validateMetadata(pod.getMetadata(), FieldPath.root("metadata"), errors);
        PodSpec spec = pod.getSpec();
        FieldPath specPath = FieldPath.root("spec");
        if (spec == null) {
            errors.add(FieldError.required(specPath.child("containers"), ""));
            return errors;
        }
        validateSpec(spec, specPath, errors);
        return errors;
    }

    /**
     * What a static pod may not use because it needs the apiserver: ResourceClaims and
     * ClusterTrustBundle projections ({@code ErrStaticPodTriedToUse...} in {@code config/common.go}).
     */
    public static List<FieldError> validateStaticPodRestrictions(Pod pod) {
        List<FieldError> errors = new ArrayList<>();
        PodSpec spec = pod.getSpec();
        if (spec == null) {
            return errors;
        }
        FieldPath specPath = FieldPath.root("spec");
        if (!nullToEmpty(spec.getResourceClaims()).isEmpty()) {
            errors.add(FieldError.forbidden(specPath.child("resourceClaims"), "static pods may not use ResourceClaims"));
        }
        List<Volume> volumes = nullToEmpty(spec.getVolumes());
        for (int i = 0; i < volumes.size(); i++) {
            Volume volume = volumes.get(i);
            if (volume.getProjected() == null) {
                continue;
            }
            List<VolumeProjection> sources = nullToEmpty(volume.getProjected().getSources());
            for (int j = 0; j < sources.size(); j++) {
                if (sources.get(j).getClusterTrustBundle() != null) {
                    errors.add(FieldError.forbidden(specPath.child("volumes").index(i).child("projected", "sources")
                            .index(j).child("clusterTrustBundle"),
                            "static pods may not use ClusterTrustBundle projected volumes"));
                }
            }
        }
        return errors;
    }

    private static void validateMetadata(ObjectMeta meta, FieldPath path, List<FieldError> errors) {
        if (meta == null) {
            errors.add(FieldError.required(path.child("name"), "name or generateName is required"));
            return;
        }
        String name = meta.getName();
        if (name == null || name.isEmpty()) {
            errors.add(FieldError.required(path.child("name"), "name or generateName is required"));
        } else {
            for (String message : NameValidation.dns1123Subdomain(name)) {
                errors.add(FieldError.invalid(path.child("name"), name, message));
            }
        }
        String namespace = meta.getNamespace();
        if (namespace == null || namespace.isEmpty()) {
            errors.add(FieldError.required(path.child("namespace"), ""));
        } else {
            for (String message : NameValidation.dns1123Label(namespace)) {
                errors.add(FieldError.invalid(path.child("namespace"), namespace, message));
            }
        }
        Map<String, String> labels = nullToEmpty(meta.getLabels());
        for (Map.Entry<String, String> label : labels.entrySet()) {
            for (String message : NameValidation.qualifiedName(label.getKey())) {
                errors.add(FieldError.invalid(path.child("labels"), label.getKey(), message));
            }
            String value = label.getValue() == null ? "" : label.getValue();
            for (String message : NameValidation.labelValue(value)) {
                errors.add(FieldError.invalid(path.child("labels").key(label.getKey()), value, message));
            }
        }
        long annotationBytes = 0;
        for (Map.Entry<String, String> annotation : nullToEmpty(meta.getAnnotations()).entrySet()) {
            for (String message : NameValidation.qualifiedName(annotation.getKey().toLowerCase(java.util.Locale.ROOT))) {
                errors.add(FieldError.invalid(path.child("annotations"), annotation.getKey(), message));
            }
            annotationBytes += annotation.getKey().getBytes(StandardCharsets.UTF_8).length;
            annotationBytes += annotation.getValue() == null ? 0
                    : annotation.getValue().getBytes(StandardCharsets.UTF_8).length;
        }
        if (annotationBytes > TOTAL_ANNOTATION_SIZE_LIMIT) {
            errors.add(FieldError.tooLong(path.child("annotations"),
                    "must have at most " + TOTAL_ANNOTATION_SIZE_LIMIT + " bytes"));
        }
    }

    private static void validateSpec(PodSpec spec, FieldPath path, List<FieldError> errors) {
        Set<String> volumeNames = validateVolumes(nullToEmpty(spec.getVolumes()), path.child("volumes"), errors);
        boolean hostNetwork = Boolean.TRUE.equals(spec.getHostNetwork());

        List<Container> initContainers = nullToEmpty(spec.getInitContainers());
        List<Container> containers = nullToEmpty(spec.getContainers());
        Set<String> containerNames = new HashSet<>();
        for (int i = 0; i < initContainers.size(); i++) {
            validateContainer(initContainers.get(i), true, path.child("initContainers").index(i), containerNames,
                    volumeNames, hostNetwork, errors);
        }
        if (containers.isEmpty()) {
            errors.add(FieldError.required(path.child("containers"), ""));
        }
        for (int i = 0; i < containers.size(); i++) {
            validateContainer(containers.get(i), false, path.child("containers").index(i), containerNames,
                    volumeNames, hostNetwork, errors);
        }
        if (!nullToEmpty(spec.getEphemeralContainers()).isEmpty()) {
            errors.add(FieldError.forbidden(path.child("ephemeralContainers"), "cannot be set on create"));
        }

        oneOf(spec.getRestartPolicy(), RESTART_POLICIES, path.child("restartPolicy"), errors);
        oneOf(spec.getDnsPolicy(), DNS_POLICIES, path.child("dnsPolicy"), errors);
        if ("None".equals(spec.getDnsPolicy()) && spec.getDnsConfig() == null) {
            errors.add(FieldError.required(path.child("dnsConfig"), "must provide `dnsConfig` when `dnsPolicy` is None"));
        }
        Long activeDeadline = spec.getActiveDeadlineSeconds();
        if (activeDeadline != null && (activeDeadline < 1 || activeDeadline > Integer.MAX_VALUE)) {
            errors.add(FieldError.invalid(path.child("activeDeadlineSeconds"), activeDeadline,
                    "must be between 1 and 2147483647, inclusive"));
        }
        Long grace = spec.getTerminationGracePeriodSeconds();
        if (grace != null && grace < 0) {
            errors.add(FieldError.invalid(path.child("terminationGracePeriodSeconds"), grace,
                    "must be greater than or equal to 0"));
        }
    }

    private static Set<String> validateVolumes(List<Volume> volumes, FieldPath path, List<FieldError> errors) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < volumes.size(); i++) {
            Volume volume = volumes.get(i);
            FieldPath volumePath = path.index(i);
            String name = volume.getName();
            if (name == null || name.isEmpty()) {
                errors.add(FieldError.required(volumePath.child("name"), ""));
            } else {
                for (String message : NameValidation.dns1123Label(name)) {
                    errors.add(FieldError.invalid(volumePath.child("name"), name, message));
                }
                if (!names.add(name)) {
                    errors.add(FieldError.duplicate(volumePath.child("name"), name));
                }
            }
            int sources = countVolumeSources(volume);
            if (sources == 0) {
                errors.add(FieldError.required(volumePath, "must specify a volume type"));
            } else if (sources > 1) {
                errors.add(FieldError.forbidden(volumePath, "may not specify more than 1 volume type"));
            }
        }
        return names;
    }

    /** The volume sources a volume declares: every field but its name. */
    private static int countVolumeSources(Volume volume) {
        JsonNode tree = TREES.valueToTree(volume);
        int count = 0;
        for (String field : tree.propertyNames()) {
            if (!field.equals("name") && !tree.get(field).isNull()) {
                count++;
            }
        }
        return count;
    }

    private static void validateContainer(Container container, boolean init, FieldPath path, Set<String> names,
            Set<String> volumeNames, boolean hostNetwork, List<FieldError> errors) {
        String name = container.getName();
        if (name == null || name.isEmpty()) {
            errors.add(FieldError.required(path.child("name"), ""));
        } else {
            for (String message : NameValidation.dns1123Label(name)) {
                errors.add(FieldError.invalid(path.child("name"), name, message));
            }
            if (!names.add(name)) {
                errors.add(FieldError.duplicate(path.child("name"), name));
            }
        }
        validateImage(container.getImage(), path.child("image"), errors);

        boolean sidecar = init && "Always".equals(container.getRestartPolicy());
        if (init) {
            if (container.getRestartPolicy() != null) {
                oneOf(container.getRestartPolicy(), List.of("Always"), path.child("restartPolicy"), errors);
            }
        } else if (container.getRestartPolicy() != null) {
            errors.add(FieldError.forbidden(path.child("restartPolicy"), "may not be set for non-init containers"));
        }
        if (init && !sidecar) {
            forbidInInit(container.getLivenessProbe(), path.child("livenessProbe"), errors);
            forbidInInit(container.getReadinessProbe(), path.child("readinessProbe"), errors);
            forbidInInit(container.getStartupProbe(), path.child("startupProbe"), errors);
            forbidInInit(container.getLifecycle(), path.child("lifecycle"), errors);
        }
        validateProbe(container.getLivenessProbe(), path.child("livenessProbe"), true, errors);
        validateProbe(container.getReadinessProbe(), path.child("readinessProbe"), false, errors);
        validateProbe(container.getStartupProbe(), path.child("startupProbe"), true, errors);
        validateLifecycle(container.getLifecycle(), path.child("lifecycle"), errors);

        if (container.getImagePullPolicy() != null) {
            oneOf(container.getImagePullPolicy(), PULL_POLICIES, path.child("imagePullPolicy"), errors);
        }
        if (container.getTerminationMessagePolicy() != null) {
            oneOf(container.getTerminationMessagePolicy(), TERMINATION_MESSAGE_POLICIES,
                    path.child("terminationMessagePolicy"), errors);
        }
        validatePorts(nullToEmpty(container.getPorts()), path.child("ports"), hostNetwork, errors);
        validateEnv(nullToEmpty(container.getEnv()), path.child("env"), errors);
        validateVolumeMounts(nullToEmpty(container.getVolumeMounts()), path.child("volumeMounts"), volumeNames, errors);
        validateResources(container.getResources(), path.child("resources"), errors);
    }

    private static void forbidInInit(Object field, FieldPath path, List<FieldError> errors) {
        if (field != null) {
            errors.add(FieldError.forbidden(path, "may not be set for init containers without restartPolicy=Always"));
        }
    }

    private static void validateImage(String image, FieldPath path, List<FieldError> errors) {
        if (image == null || image.isEmpty()) {
            errors.add(FieldError.required(path, ""));
            return;
        }
        if (!image.equals(image.strip())) {
            errors.add(FieldError.invalid(path, image, "must not have leading or trailing whitespace"));
            return;
        }
        try {
            ImageReference.parseNormalized(image);
        } catch (IllegalArgumentException e) {
            errors.add(FieldError.invalid(path, image, e.getMessage()));
        }
    }

    private static void validatePorts(List<ContainerPort> ports, FieldPath path, boolean hostNetwork,
            List<FieldError> errors) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            ContainerPort port = ports.get(i);
            FieldPath portPath = path.index(i);
            String name = port.getName();
            if (name != null && !name.isEmpty()) {
                for (String message : NameValidation.portName(name)) {
                    errors.add(FieldError.invalid(portPath.child("name"), name, message));
                }
                if (!names.add(name)) {
                    errors.add(FieldError.duplicate(portPath.child("name"), name));
                }
            }
            int containerPort = port.getContainerPort() == null ? 0 : port.getContainerPort();
            if (containerPort == 0) {
                errors.add(FieldError.required(portPath.child("containerPort"), ""));
            } else {
                for (String message : NameValidation.portNumber(containerPort)) {
                    errors.add(FieldError.invalid(portPath.child("containerPort"), containerPort, message));
                }
            }
            int hostPort = port.getHostPort() == null ? 0 : port.getHostPort();
            if (hostPort != 0) {
                for (String message : NameValidation.portNumber(hostPort)) {
                    errors.add(FieldError.invalid(portPath.child("hostPort"), hostPort, message));
                }
            }
            if (hostNetwork && hostPort != containerPort) {
                errors.add(FieldError.invalid(portPath.child("hostPort"), hostPort,
                        "must match `containerPort` when `hostNetwork` is true"));
            }
            if (port.getProtocol() == null || port.getProtocol().isEmpty()) {
                errors.add(FieldError.required(portPath.child("protocol"), ""));
            } else {
                oneOf(port.getProtocol(), PROTOCOLS, portPath.child("protocol"), errors);
            }
        }
    }

    private static void validateEnv(List<EnvVar> env, FieldPath path, List<FieldError> errors) {
        for (int i = 0; i < env.size(); i++) {
            String name = env.get(i).getName();
            FieldPath namePath = path.index(i).child("name");
            if (name == null || name.isEmpty()) {
                errors.add(FieldError.required(namePath, ""));
            } else if (!ENV_VAR_NAME.matcher(name).matches()) {
                errors.add(FieldError.invalid(namePath, name,
                        "a valid environment variable name must consist only of printable ASCII characters other than '='"));
            }
        }
    }

    private static void validateVolumeMounts(List<VolumeMount> mounts, FieldPath path, Set<String> volumeNames,
            List<FieldError> errors) {
        Set<String> mountPaths = new HashSet<>();
        for (int i = 0; i < mounts.size(); i++) {
            VolumeMount mount = mounts.get(i);
            FieldPath mountPath = path.index(i);
            String name = mount.getName();
            if (name == null || name.isEmpty()) {
                errors.add(FieldError.required(mountPath.child("name"), ""));
            } else if (!volumeNames.contains(name)) {
                errors.add(FieldError.notFound(mountPath.child("name"), name));
            }
            String target = mount.getMountPath();
            if (target == null || target.isEmpty()) {
                errors.add(FieldError.required(mountPath.child("mountPath"), ""));
            } else if (!mountPaths.add(target)) {
                errors.add(FieldError.invalid(mountPath.child("mountPath"), target, "must be unique"));
            }
        }
    }

    private static void validateResources(ResourceRequirements resources, FieldPath path, List<FieldError> errors) {
        if (resources == null) {
            return;
        }
        Map<String, BigDecimal> limits = validateResourceList(nullToEmpty(resources.getLimits()), path.child("limits"),
                errors);
        Map<String, BigDecimal> requests = validateResourceList(nullToEmpty(resources.getRequests()),
                path.child("requests"), errors);
        for (Map.Entry<String, BigDecimal> request : requests.entrySet()) {
            BigDecimal limit = limits.get(request.getKey());
            if (limit != null && request.getValue().compareTo(limit) > 0) {
                errors.add(FieldError.invalid(path.child("requests").key(request.getKey()),
                        resources.getRequests().get(request.getKey()).toString(),
                        "must be less than or equal to " + request.getKey() + " limit of "
                                + resources.getLimits().get(request.getKey())));
            }
        }
    }

    /** Checks names and quantities; returns the values of the valid entries. */
    private static Map<String, BigDecimal> validateResourceList(Map<String, Quantity> list, FieldPath path,
            List<FieldError> errors) {
        Map<String, BigDecimal> values = new HashMap<>();
        for (Map.Entry<String, Quantity> entry : list.entrySet()) {
            String resource = entry.getKey();
            FieldPath entryPath = path.key(resource);
            boolean validName = true;
            for (String message : NameValidation.qualifiedName(resource)) {
                errors.add(FieldError.invalid(path, resource, message));
                validName = false;
            }
            if (validName && !resource.contains("/") && !STANDARD_CONTAINER_RESOURCES.contains(resource)
                    && !resource.startsWith("hugepages-")) {
                errors.add(FieldError.invalid(path, resource, "must be a standard resource for containers"));
            }
            String text = entry.getValue() == null ? "" : entry.getValue().toString();
            BigDecimal value;
            try {
                value = QuantityFormat.parse(text);
            } catch (IllegalArgumentException e) {
                errors.add(FieldError.invalid(entryPath, text, e.getMessage()));
                continue;
            }
            if (value.signum() < 0) {
                errors.add(FieldError.invalid(entryPath, text, "must be greater than or equal to 0"));
                continue;
            }
            values.put(resource, value);
        }
        return values;
    }

    private static void validateProbe(Probe probe, FieldPath path, boolean successMustBeOne, List<FieldError> errors) {
        if (probe == null) {
            return;
        }
        List<String> handlers = new ArrayList<>();
        if (probe.getExec() != null) {
            handlers.add("exec");
        }
        if (probe.getHttpGet() != null) {
            handlers.add("httpGet");
            validateHttpGet(probe.getHttpGet(), path.child("httpGet"), errors);
        }
        if (probe.getTcpSocket() != null) {
            handlers.add("tcpSocket");
            validatePortNumOrName(probe.getTcpSocket().getPort(), path.child("tcpSocket", "port"), errors);
        }
        if (probe.getGrpc() != null) {
            handlers.add("grpc");
            int port = probe.getGrpc().getPort() == null ? 0 : probe.getGrpc().getPort();
            for (String message : NameValidation.portNumber(port)) {
                errors.add(FieldError.invalid(path.child("grpc", "port"), port, message));
            }
        }
        checkOneHandler(handlers, path, errors);
        nonNegative(probe.getInitialDelaySeconds(), path.child("initialDelaySeconds"), errors);
        nonNegative(probe.getTimeoutSeconds(), path.child("timeoutSeconds"), errors);
        nonNegative(probe.getPeriodSeconds(), path.child("periodSeconds"), errors);
        nonNegative(probe.getSuccessThreshold(), path.child("successThreshold"), errors);
        nonNegative(probe.getFailureThreshold(), path.child("failureThreshold"), errors);
        if (successMustBeOne && probe.getSuccessThreshold() != null && probe.getSuccessThreshold() != 1) {
            errors.add(FieldError.invalid(path.child("successThreshold"), probe.getSuccessThreshold(), "must be 1"));
        }
        if (probe.getTerminationGracePeriodSeconds() != null && probe.getTerminationGracePeriodSeconds() <= 0) {
            errors.add(FieldError.invalid(path.child("terminationGracePeriodSeconds"),
                    probe.getTerminationGracePeriodSeconds(), "must be greater than 0"));
        }
    }

    private static void validateLifecycle(Lifecycle lifecycle, FieldPath path, List<FieldError> errors) {
        if (lifecycle == null) {
            return;
        }
        validateLifecycleHandler(lifecycle.getPostStart(), path.child("postStart"), errors);
        validateLifecycleHandler(lifecycle.getPreStop(), path.child("preStop"), errors);
    }

    private static void validateLifecycleHandler(LifecycleHandler handler, FieldPath path, List<FieldError> errors) {
        if (handler == null) {
            return;
        }
        List<String> handlers = new ArrayList<>();
        if (handler.getExec() != null) {
            handlers.add("exec");
        }
        if (handler.getHttpGet() != null) {
            handlers.add("httpGet");
            validateHttpGet(handler.getHttpGet(), path.child("httpGet"), errors);
        }
        if (handler.getTcpSocket() != null) {
            handlers.add("tcpSocket");
            validatePortNumOrName(handler.getTcpSocket().getPort(), path.child("tcpSocket", "port"), errors);
        }
        if (handler.getSleep() != null) {
            handlers.add("sleep");
        }
        checkOneHandler(handlers, path, errors);
    }

    private static void checkOneHandler(List<String> handlers, FieldPath path, List<FieldError> errors) {
        if (handlers.isEmpty()) {
            errors.add(FieldError.required(path, "must specify a handler type"));
        } else if (handlers.size() > 1) {
            errors.add(FieldError.forbidden(path.child(handlers.get(1)), "may not specify more than 1 handler type"));
        }
    }

    private static void validateHttpGet(HTTPGetAction action, FieldPath path, List<FieldError> errors) {
        validatePortNumOrName(action.getPort(), path.child("port"), errors);
        if (action.getScheme() != null) {
            oneOf(action.getScheme(), URI_SCHEMES, path.child("scheme"), errors);
        }
    }

    private static void validatePortNumOrName(IntOrString port, FieldPath path, List<FieldError> errors) {
        if (port == null || (port.getIntVal() == null && port.getStrVal() == null)) {
            errors.add(FieldError.required(path, ""));
        } else if (port.getIntVal() != null) {
            for (String message : NameValidation.portNumber(port.getIntVal())) {
                errors.add(FieldError.invalid(path, port.getIntVal(), message));
            }
        } else {
            for (String message : NameValidation.portName(port.getStrVal())) {
                errors.add(FieldError.invalid(path, port.getStrVal(), message));
            }
        }
    }

    private static void nonNegative(Integer value, FieldPath path, List<FieldError> errors) {
        if (value != null && value < 0) {
            errors.add(FieldError.invalid(path, value, "must be greater than or equal to 0"));
        }
    }

    private static void oneOf(String value, List<String> supported, FieldPath path, List<FieldError> errors) {
        if (value == null || value.isEmpty()) {
            errors.add(FieldError.required(path, ""));
        } else if (!supported.contains(value)) {
            errors.add(FieldError.notSupported(path, value, supported));
        }
    }

    private static <T> List<T> nullToEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static <K, V> Map<K, V> nullToEmpty(Map<K, V> map) {
        return map == null ? Map.of() : map;
    }
}
