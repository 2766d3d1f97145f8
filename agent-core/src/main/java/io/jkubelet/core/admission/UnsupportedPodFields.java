package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.DownwardAPIVolumeFile;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Lifecycle;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.jkubelet.core.config.validation.FieldPath;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The fields of a pod that this kubelet does not act on, each with the path that names it: what
 * {@link PodFeaturesAdmitHandler} refuses. A field with a value that is what this kubelet does anyway (the host's
 * user namespace, {@code procMount: Default}, {@code recursiveReadOnly: Disabled}) is not listed. The reviewed list of
 * every field of the pod spec and what becomes of it is {@code pod-fields.yaml} ({@code PodFieldCoverageTest}).
 * Pure and thread-safe.
 */
final class UnsupportedPodFields {
    /** One use of a field this kubelet does not act on. */
    record Use(FieldPath path, String feature) {
        @Override
        public String toString() {
            return feature + " (" + path + ")";
        }
    }

    /**
     * The volume sources this kubelet cannot mount, by field name: every source but emptyDir, hostPath, gitRepo,
     * configMap, secret, downwardAPI, projected, nfs, csi, persistentVolumeClaim and ephemeral.
     */
    private static final Map<String, Function<Volume, Object>> UNMOUNTABLE = new LinkedHashMap<>();

    static {
        UNMOUNTABLE.put("awsElasticBlockStore", Volume::getAwsElasticBlockStore);
        UNMOUNTABLE.put("azureDisk", Volume::getAzureDisk);
        UNMOUNTABLE.put("azureFile", Volume::getAzureFile);
        UNMOUNTABLE.put("cephfs", Volume::getCephfs);
        UNMOUNTABLE.put("cinder", Volume::getCinder);
        UNMOUNTABLE.put("fc", Volume::getFc);
        UNMOUNTABLE.put("flexVolume", Volume::getFlexVolume);
        UNMOUNTABLE.put("flocker", Volume::getFlocker);
        UNMOUNTABLE.put("gcePersistentDisk", Volume::getGcePersistentDisk);
        UNMOUNTABLE.put("glusterfs", Volume::getGlusterfs);
        UNMOUNTABLE.put("image", Volume::getImage);
        UNMOUNTABLE.put("iscsi", Volume::getIscsi);
        UNMOUNTABLE.put("photonPersistentDisk", Volume::getPhotonPersistentDisk);
        UNMOUNTABLE.put("portworxVolume", Volume::getPortworxVolume);
        UNMOUNTABLE.put("quobyte", Volume::getQuobyte);
        UNMOUNTABLE.put("rbd", Volume::getRbd);
        UNMOUNTABLE.put("scaleIO", Volume::getScaleIO);
        UNMOUNTABLE.put("storageos", Volume::getStorageos);
        UNMOUNTABLE.put("vsphereVolume", Volume::getVsphereVolume);
    }

    private final boolean seLinuxEnabled;
    private final List<Use> uses = new ArrayList<>();

    private UnsupportedPodFields(boolean seLinuxEnabled) {
        this.seLinuxEnabled = seLinuxEnabled;
    }

    /**
     * @param seLinuxEnabled whether the host enforces SELinux: without it SELinux options mean nothing to the runtime,
     *     and upstream passes them on to be ignored
     */
    static List<Use> of(Pod pod, boolean seLinuxEnabled) {
        UnsupportedPodFields found = new UnsupportedPodFields(seLinuxEnabled);
        if (pod.getSpec() != null) {
            found.spec(pod.getSpec(), FieldPath.root("spec"));
        }
        found.uses.addAll(UnknownPodFields.of(pod));
        return List.copyOf(found.uses);
    }

    /** Whether the pod sets pod-level resources (upstream's {@code IsPodLevelResourcesSet}). */
    static boolean podLevelResources(Pod pod) {
        return pod.getSpec() != null && isSet(pod.getSpec().getResources());
    }

    private void add(FieldPath path, String feature) {
        uses.add(new Use(path, feature));
    }

    private void spec(PodSpec spec, FieldPath path) {
        if (Boolean.FALSE.equals(spec.getHostUsers())) {
            add(path.child("hostUsers"), "user namespaces");
        }
        if (isSet(spec.getHostnameOverride())) {
            add(path.child("hostnameOverride"), "hostname override");
        }
        if (Boolean.TRUE.equals(spec.getSetHostnameAsFQDN())) {
            add(path.child("setHostnameAsFQDN"), "the pod's FQDN as its hostname");
        }
        if (isSet(spec.getResourceClaims())) {
            add(path.child("resourceClaims"), "dynamic resource allocation");
        }
        if (isSet(spec.getEphemeralContainers())) {
            add(path.child("ephemeralContainers"), "ephemeral containers");
        }
        if (spec.getSecurityContext() != null) {
            podSecurity(spec.getSecurityContext(), path.child("securityContext"));
        }
        each(spec.getVolumes(), path.child("volumes"), this::volume);
        each(spec.getInitContainers(), path.child("initContainers"), (c, p) -> container(c, p, true));
        each(spec.getContainers(), path.child("containers"), (c, p) -> container(c, p, false));
    }

    private void podSecurity(PodSecurityContext sc, FieldPath path) {
        if (seLinuxEnabled && sc.getSeLinuxOptions() != null) {
            add(path.child("seLinuxOptions"), "SELinux labels");
        }
        if (seLinuxEnabled && isSet(sc.getSeLinuxChangePolicy())) {
            add(path.child("seLinuxChangePolicy"), "SELinux relabelling policy");
        }
        // supplementalGroupsPolicy: Strict is the predicate admit handler's, with upstream's own reason.
    }

    private void volume(Volume v, FieldPath path) {
        UNMOUNTABLE.forEach((source, getter) -> {
            if (getter.apply(v) != null) {
                add(path.child(source), source.equals("image") ? "image volumes" : source + " volumes");
            }
        });
        if (v.getEmptyDir() != null) {
            String medium = v.getEmptyDir().getMedium();
            if (medium != null && !medium.isEmpty() && !medium.equals("Memory")) {
                add(path.child("emptyDir", "medium"), "emptyDir medium " + medium);
            }
            if (v.getEmptyDir().getMode() != null) {
                add(path.child("emptyDir", "mode"), "emptyDir mode");
            }
        }
        if (v.getConfigMap() != null) {
            fileOwners(v.getConfigMap().getDefaultUser(), v.getConfigMap().getItems(), KeyToPath::getUser,
                    path.child("configMap"));
        }
        if (v.getSecret() != null) {
            fileOwners(v.getSecret().getDefaultUser(), v.getSecret().getItems(), KeyToPath::getUser,
                    path.child("secret"));
        }
        if (v.getDownwardAPI() != null) {
            fileOwners(v.getDownwardAPI().getDefaultUser(), v.getDownwardAPI().getItems(),
                    DownwardAPIVolumeFile::getUser, path.child("downwardAPI"));
        }
        if (v.getProjected() != null) {
            FieldPath projected = path.child("projected");
            if (v.getProjected().getDefaultUser() != null) {
                add(projected.child("defaultUser"), "volume file owners");
            }
            each(v.getProjected().getSources(), projected.child("sources"), this::projection);
        }
    }

    private void projection(VolumeProjection source, FieldPath path) {
        if (source.getClusterTrustBundle() != null) {
            add(path.child("clusterTrustBundle"), "ClusterTrustBundle projections");
        }
        if (source.getPodCertificate() != null) {
            add(path.child("podCertificate"), "pod certificate projections");
        }
        if (source.getConfigMap() != null) {
            fileOwners(null, source.getConfigMap().getItems(), KeyToPath::getUser, path.child("configMap"));
        }
        if (source.getSecret() != null) {
            fileOwners(null, source.getSecret().getItems(), KeyToPath::getUser, path.child("secret"));
        }
        if (source.getDownwardAPI() != null) {
            fileOwners(null, source.getDownwardAPI().getItems(), DownwardAPIVolumeFile::getUser,
                    path.child("downwardAPI"));
        }
        if (source.getServiceAccountToken() != null && source.getServiceAccountToken().getUser() != null) {
            add(path.child("serviceAccountToken", "user"), "volume file owners");
        }
    }

    /** A volume's {@code defaultUser} and its files' {@code user}: who owns the files, which jkubelet does not set. */
    private <T> void fileOwners(Long defaultUser, List<T> items, Function<T, Long> user, FieldPath path) {
        if (defaultUser != null) {
            add(path.child("defaultUser"), "volume file owners");
        }
        each(items, path.child("items"), (item, p) -> {
            if (user.apply(item) != null) {
                add(p.child("user"), "volume file owners");
            }
        });
    }

    private void container(Container c, FieldPath path, boolean init) {
        // An init container's restartPolicy: Always makes it a sidecar; any other container-level policy is the
        // ContainerRestartRules feature.
        if (c.getRestartPolicy() != null && !(init && c.getRestartPolicy().equals("Always"))) {
            add(path.child("restartPolicy"), "container restart policy");
        }
        if (isSet(c.getRestartPolicyRules())) {
            add(path.child("restartPolicyRules"), "container restart rules");
        }
        ResourceRequirements resources = c.getResources();
        if (resources != null && isSet(resources.getClaims())) {
            add(path.child("resources", "claims"), "dynamic resource allocation");
        }
        Lifecycle lifecycle = c.getLifecycle();
        if (lifecycle != null) {
            if (isSet(lifecycle.getStopSignal())) {
                add(path.child("lifecycle", "stopSignal"), "container stop signals");
            }
            handler(lifecycle.getPostStart(), path.child("lifecycle", "postStart"));
            handler(lifecycle.getPreStop(), path.child("lifecycle", "preStop"));
        }
        probe(c.getLivenessProbe(), path.child("livenessProbe"));
        probe(c.getReadinessProbe(), path.child("readinessProbe"));
        probe(c.getStartupProbe(), path.child("startupProbe"));
        each(c.getEnv(), path.child("env"), (EnvVar e, FieldPath p) -> {
            if (e.getValueFrom() != null && e.getValueFrom().getFileKeyRef() != null) {
                add(p.child("valueFrom", "fileKeyRef"), "environment variables from files");
            }
        });
        each(c.getVolumeMounts(), path.child("volumeMounts"), (VolumeMount m, FieldPath p) -> {
            if (m.getRecursiveReadOnly() != null && !m.getRecursiveReadOnly().equals("Disabled")) {
                add(p.child("recursiveReadOnly"), "recursive read-only mounts");
            }
            if (isSet(m.getBindMountOptions())) {
                add(p.child("bindMountOptions"), "bind mount options");
            }
        });
        SecurityContext sc = c.getSecurityContext();
        if (sc != null) {
            if (sc.getProcMount() != null && !sc.getProcMount().equals("Default")) {
                add(path.child("securityContext", "procMount"), "procMount " + sc.getProcMount());
            }
            if (seLinuxEnabled && sc.getSeLinuxOptions() != null) {
                add(path.child("securityContext", "seLinuxOptions"), "SELinux labels");
            }
        }
    }

    private void handler(LifecycleHandler handler, FieldPath path) {
        if (handler != null) {
            httpGet(handler.getHttpGet(), path.child("httpGet"));
        }
    }

    private void probe(Probe probe, FieldPath path) {
        if (probe == null) {
            return;
        }
        httpGet(probe.getHttpGet(), path.child("httpGet"));
        if (probe.getGrpc() != null && isSet(probe.getGrpc().getMode())) {
            add(path.child("grpc", "mode"), "gRPC probe mode");
        }
    }

    private void httpGet(HTTPGetAction action, FieldPath path) {
        if (action != null && isSet(action.getProtocol())) {
            add(path.child("protocol"), "HTTP probe protocol");
        }
    }

    private static <T> void each(List<T> items, FieldPath path, BiConsumer<T, FieldPath> check) {
        if (items == null) {
            return;
        }
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) != null) {
                check.accept(items.get(i), path.index(i));
            }
        }
    }

    private static boolean isSet(String s) {
        return s != null && !s.isEmpty();
    }

    private static boolean isSet(List<?> l) {
        return l != null && !l.isEmpty();
    }

    private static boolean isSet(ResourceRequirements r) {
        return r != null && (isSet(r.getClaims()) || (r.getLimits() != null && !r.getLimits().isEmpty())
                || (r.getRequests() != null && !r.getRequests().isEmpty()));
    }
}
