package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.DownwardAPIVolumeFile;
import io.fabric8.kubernetes.api.model.EmptyDirVolumeSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.Lifecycle;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.ObjectFieldSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.jkubelet.core.config.validation.ImageReference;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * The defaults the apiserver gives a v1 Pod ({@code SetObjectDefaults_Pod} in
 * {@code pkg/apis/core/v1}): the kubelet decodes static pods through the same defaulting, so a static
 * pod looks exactly like one read back from the apiserver.
 *
 * <p>Not applied: rounding quantities up to milli precision ({@code SetDefaults_ResourceList}),
 * pod-level resources (a feature gate), and defaults of ephemeral containers (a static pod may not
 * have any) and of volume types a node here cannot mount (iSCSI, RBD, Azure disk, ScaleIO).
 */
public final class PodDefaults {

    static final long DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
    static final String DEFAULT_SCHEDULER_NAME = "default-scheduler";
    static final String TERMINATION_MESSAGE_PATH_DEFAULT = "/dev/termination-log";
    /** 0644, the default mode of secret, configMap, downwardAPI and projected volume files. */
    static final int DEFAULT_VOLUME_FILE_MODE = 0644;
    static final long DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;

    private PodDefaults() {
    }

    /** Fills in every default {@code pod} lacks, in place. Idempotent. */
    public static void apply(Pod pod) {
        if (pod.getSpec() == null) {
            pod.setSpec(new PodSpec());
        }
        PodSpec spec = pod.getSpec();
        podDefaults(spec);
        podSpecDefaults(spec);
        for (Volume volume : nullToEmpty(spec.getVolumes())) {
            volumeDefaults(volume);
        }
        for (Container container : nullToEmpty(spec.getInitContainers())) {
            containerDefaults(container);
        }
        for (Container container : nullToEmpty(spec.getContainers())) {
            containerDefaults(container);
        }
    }

    /** {@code SetDefaults_Pod}: requests from limits, service links, host ports under hostNetwork. */
    private static void podDefaults(PodSpec spec) {
        for (Container container : concat(spec.getContainers(), spec.getInitContainers())) {
            ResourceRequirements resources = container.getResources();
            if (resources == null || resources.getLimits() == null) {
                continue;
            }
            if (resources.getRequests() == null) {
                resources.setRequests(new LinkedHashMap<>());
            }
            Map<String, Quantity> requests = resources.getRequests();
            for (Map.Entry<String, Quantity> limit : resources.getLimits().entrySet()) {
                if (!requests.containsKey(limit.getKey()) && limit.getValue() != null) {
                    requests.put(limit.getKey(), new Quantity(limit.getValue().getAmount(), limit.getValue().getFormat()));
                }
            }
        }
        if (spec.getEnableServiceLinks() == null) {
            spec.setEnableServiceLinks(true);
        }
        if (Boolean.TRUE.equals(spec.getHostNetwork())) {
            for (Container container : concat(spec.getContainers(), spec.getInitContainers())) {
                for (ContainerPort port : nullToEmpty(container.getPorts())) {
                    if (port.getHostPort() == null || port.getHostPort() == 0) {
                        port.setHostPort(port.getContainerPort());
                    }
                }
            }
        }
    }

    /** {@code SetDefaults_PodSpec}. */
    private static void podSpecDefaults(PodSpec spec) {
        if (isEmpty(spec.getDnsPolicy())) {
            spec.setDnsPolicy("ClusterFirst");
        }
        if (isEmpty(spec.getRestartPolicy())) {
            spec.setRestartPolicy("Always");
        }
        if (spec.getSecurityContext() == null) {
            spec.setSecurityContext(new PodSecurityContext());
        }
        if (spec.getTerminationGracePeriodSeconds() == null) {
            spec.setTerminationGracePeriodSeconds(DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS);
        }
        if (isEmpty(spec.getSchedulerName())) {
            spec.setSchedulerName(DEFAULT_SCHEDULER_NAME);
        }
    }

    /** {@code SetDefaults_Volume} and the defaults of the volume sources. */
    private static void volumeDefaults(Volume volume) {
        if (!declaresSource(volume)) {
            volume.setEmptyDir(new EmptyDirVolumeSource());
        }
        if (volume.getHostPath() != null && volume.getHostPath().getType() == null) {
            volume.getHostPath().setType("");
        }
        if (volume.getSecret() != null && volume.getSecret().getDefaultMode() == null) {
            volume.getSecret().setDefaultMode(DEFAULT_VOLUME_FILE_MODE);
        }
        if (volume.getConfigMap() != null && volume.getConfigMap().getDefaultMode() == null) {
            volume.getConfigMap().setDefaultMode(DEFAULT_VOLUME_FILE_MODE);
        }
        if (volume.getDownwardAPI() != null) {
            if (volume.getDownwardAPI().getDefaultMode() == null) {
                volume.getDownwardAPI().setDefaultMode(DEFAULT_VOLUME_FILE_MODE);
            }
            downwardApiDefaults(volume.getDownwardAPI().getItems());
        }
        if (volume.getProjected() != null) {
            if (volume.getProjected().getDefaultMode() == null) {
                volume.getProjected().setDefaultMode(DEFAULT_VOLUME_FILE_MODE);
            }
            for (VolumeProjection source : nullToEmpty(volume.getProjected().getSources())) {
                if (source.getDownwardAPI() != null) {
                    downwardApiDefaults(source.getDownwardAPI().getItems());
                }
                if (source.getServiceAccountToken() != null
                        && source.getServiceAccountToken().getExpirationSeconds() == null) {
                    source.getServiceAccountToken().setExpirationSeconds(DEFAULT_TOKEN_EXPIRATION_SECONDS);
                }
            }
        }
        if (volume.getEphemeral() != null && volume.getEphemeral().getVolumeClaimTemplate() != null
                && volume.getEphemeral().getVolumeClaimTemplate().getSpec() != null
                && volume.getEphemeral().getVolumeClaimTemplate().getSpec().getVolumeMode() == null) {
            volume.getEphemeral().getVolumeClaimTemplate().getSpec().setVolumeMode("Filesystem");
        }
    }

    /** A volume declares a source when it has any field but its name (fabric8 inlines VolumeSource). */
    private static boolean declaresSource(Volume volume) {
        JsonNode tree = PodCodec.mapper().valueToTree(volume);
        for (String field : tree.propertyNames()) {
            if (!field.equals("name") && !tree.get(field).isNull()) {
                return true;
            }
        }
        return false;
    }

    private static void downwardApiDefaults(List<DownwardAPIVolumeFile> items) {
        for (DownwardAPIVolumeFile item : nullToEmpty(items)) {
            fieldSelectorDefaults(item.getFieldRef());
        }
    }

    private static void fieldSelectorDefaults(ObjectFieldSelector selector) {
        if (selector != null && isEmpty(selector.getApiVersion())) {
            selector.setApiVersion("v1");
        }
    }

    /** {@code SetDefaults_Container} and what hangs off a container. */
    private static void containerDefaults(Container container) {
        if (isEmpty(container.getImagePullPolicy())) {
            // An image without tag or digest means ":latest", which must be pulled every time.
            container.setImagePullPolicy(
                    ImageReference.DEFAULT_TAG.equals(ImageReference.effectiveTag(container.getImage()))
                            ? "Always" : "IfNotPresent");
        }
        if (isEmpty(container.getTerminationMessagePath())) {
            container.setTerminationMessagePath(TERMINATION_MESSAGE_PATH_DEFAULT);
        }
        if (isEmpty(container.getTerminationMessagePolicy())) {
            container.setTerminationMessagePolicy("File");
        }
        for (ContainerPort port : nullToEmpty(container.getPorts())) {
            if (isEmpty(port.getProtocol())) {
                port.setProtocol("TCP");
            }
        }
        for (EnvVar env : nullToEmpty(container.getEnv())) {
            if (env.getValueFrom() != null) {
                fieldSelectorDefaults(env.getValueFrom().getFieldRef());
            }
        }
        probeDefaults(container.getLivenessProbe());
        probeDefaults(container.getReadinessProbe());
        probeDefaults(container.getStartupProbe());
        Lifecycle lifecycle = container.getLifecycle();
        if (lifecycle != null) {
            handlerDefaults(lifecycle.getPostStart());
            handlerDefaults(lifecycle.getPreStop());
        }
    }

    /** {@code SetDefaults_Probe}: timeout 1 s, period 10 s, success 1, failure 3. */
    private static void probeDefaults(Probe probe) {
        if (probe == null) {
            return;
        }
        if (probe.getTimeoutSeconds() == null || probe.getTimeoutSeconds() == 0) {
            probe.setTimeoutSeconds(1);
        }
        if (probe.getPeriodSeconds() == null || probe.getPeriodSeconds() == 0) {
            probe.setPeriodSeconds(10);
        }
        if (probe.getSuccessThreshold() == null || probe.getSuccessThreshold() == 0) {
            probe.setSuccessThreshold(1);
        }
        if (probe.getFailureThreshold() == null || probe.getFailureThreshold() == 0) {
            probe.setFailureThreshold(3);
        }
        httpGetDefaults(probe.getHttpGet());
        if (probe.getGrpc() != null && probe.getGrpc().getService() == null) {
            probe.getGrpc().setService("");
        }
    }

    private static void handlerDefaults(LifecycleHandler handler) {
        if (handler != null) {
            httpGetDefaults(handler.getHttpGet());
        }
    }

    /** {@code SetDefaults_HTTPGetAction}: path "/", scheme HTTP. */
    private static void httpGetDefaults(HTTPGetAction action) {
        if (action == null) {
            return;
        }
        if (isEmpty(action.getPath())) {
            action.setPath("/");
        }
        if (isEmpty(action.getScheme())) {
            action.setScheme("HTTP");
        }
    }

    private static List<Container> concat(List<Container> a, List<Container> b) {
        return Stream.concat(nullToEmpty(a).stream(), nullToEmpty(b).stream()).toList();
    }

    private static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }

    private static <T> List<T> nullToEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
