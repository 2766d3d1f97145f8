package io.jkubelet.core.config.validation;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
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
    static final List<String> MOUNT_PROPAGATIONS = List.of("Bidirectional", "HostToContainer", "None");
    static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
    static final List<String> STANDARD_CONTAINER_RESOURCES = List.of("cpu", "memory", "ephemeral-storage");
    /** The most bytes a pod's annotations may take, keys and values together ({@code TotalAnnotationSizeLimitB}). */
    public static final int TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
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
        if (!FieldChecks.nullToEmpty(spec.getResourceClaims()).isEmpty()) {
            errors.add(FieldError.forbidden(specPath.child("resourceClaims"), "static pods may not use ResourceClaims"));
        }
        List<Volume> volumes = FieldChecks.nullToEmpty(spec.getVolumes());
        for (int i = 0; i < volumes.size(); i++) {
            Volume volume = volumes.get(i);
            if (volume.getProjected() == null) {
                continue;
            }
            List<VolumeProjection> sources = FieldChecks.nullToEmpty(volume.getProjected().getSources());
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
        Map<String, String> labels = FieldChecks.nullToEmpty(meta.getLabels());
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
        for (Map.Entry<String, String> annotation : FieldChecks.nullToEmpty(meta.getAnnotations()).entrySet()) {
            for (String message : NameValidation.qualifiedName(annotation.getKey().toLowerCase(Locale.ROOT))) {
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
        Set<String> volumeNames = validateVolumes(FieldChecks.nullToEmpty(spec.getVolumes()), path.child("volumes"), errors);
        boolean hostNetwork = Boolean.TRUE.equals(spec.getHostNetwork());

        List<Container> initContainers = FieldChecks.nullToEmpty(spec.getInitContainers());
        List<Container> containers = FieldChecks.nullToEmpty(spec.getContainers());
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
        if (!FieldChecks.nullToEmpty(spec.getEphemeralContainers()).isEmpty()) {
            errors.add(FieldError.forbidden(path.child("ephemeralContainers"), "cannot be set on create"));
        }

        FieldChecks.oneOf(spec.getRestartPolicy(), RESTART_POLICIES, path.child("restartPolicy"), errors);
        FieldChecks.oneOf(spec.getDnsPolicy(), DNS_POLICIES, path.child("dnsPolicy"), errors);
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
                FieldChecks.oneOf(container.getRestartPolicy(), List.of("Always"), path.child("restartPolicy"), errors);
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
        ProbeValidation.validateProbe(container.getLivenessProbe(), path.child("livenessProbe"), true, errors);
        ProbeValidation.validateProbe(container.getReadinessProbe(), path.child("readinessProbe"), false, errors);
        ProbeValidation.validateProbe(container.getStartupProbe(), path.child("startupProbe"), true, errors);
        ProbeValidation.validateLifecycle(container.getLifecycle(), path.child("lifecycle"), errors);

        if (container.getImagePullPolicy() != null) {
            FieldChecks.oneOf(container.getImagePullPolicy(), PULL_POLICIES, path.child("imagePullPolicy"), errors);
        }
        if (container.getTerminationMessagePolicy() != null) {
            FieldChecks.oneOf(container.getTerminationMessagePolicy(), TERMINATION_MESSAGE_POLICIES,
                    path.child("terminationMessagePolicy"), errors);
        }
        validatePorts(FieldChecks.nullToEmpty(container.getPorts()), path.child("ports"), hostNetwork, errors);
        validateEnv(FieldChecks.nullToEmpty(container.getEnv()), path.child("env"), errors);
        validateVolumeMounts(container, path.child("volumeMounts"), volumeNames, errors);
        ResourceValidation.validateResources(container.getResources(), path.child("resources"), errors);
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
                FieldChecks.oneOf(port.getProtocol(), PROTOCOLS, portPath.child("protocol"), errors);
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

    private static void validateVolumeMounts(Container container, FieldPath path, Set<String> volumeNames,
            List<FieldError> errors) {
        List<VolumeMount> mounts = FieldChecks.nullToEmpty(container.getVolumeMounts());
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
            validateMountPropagation(mount.getMountPropagation(), container, mountPath.child("mountPropagation"), errors);
        }
    }

    /**
     * Upstream's {@code validateMountPropagation}: a known mode, and {@code Bidirectional} only in a privileged
     * container, since its mounts reach the host's namespace.
     */
    private static void validateMountPropagation(String propagation, Container container, FieldPath path,
            List<FieldError> errors) {
        if (propagation == null) {
            return;
        }
        FieldChecks.oneOf(propagation, MOUNT_PROPAGATIONS, path, errors);
        boolean privileged = container.getSecurityContext() != null
                && Boolean.TRUE.equals(container.getSecurityContext().getPrivileged());
        if ("Bidirectional".equals(propagation) && !privileged) {
            errors.add(FieldError.forbidden(path, "Bidirectional mount propagation is available only to privileged containers"));
        }
    }
}
