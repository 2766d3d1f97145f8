package io.jkubelet.core.podutil;

import io.fabric8.kubernetes.api.model.AppArmorProfile;
import io.fabric8.kubernetes.api.model.AppArmorProfileBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.Map;
import java.util.Optional;

/**
 * Which AppArmor profile a container asks for (upstream {@code apparmor.GetProfile}), read by admission and by the
 * container's runtime config alike: the container's {@code securityContext.appArmorProfile}, else the deprecated
 * {@code container.apparmor.security.beta.kubernetes.io/<container>} annotation (static pods may carry only that),
 * else the pod's {@code securityContext.appArmorProfile}.
 */
public final class AppArmorProfiles {
    public static final String RUNTIME_DEFAULT = "RuntimeDefault";
    public static final String UNCONFINED = "Unconfined";
    public static final String LOCALHOST = "Localhost";
    public static final String ANNOTATION_PREFIX = "container.apparmor.security.beta.kubernetes.io/";

    private AppArmorProfiles() {
    }

    /** The container's profile, or empty when it asks for none (the runtime's default then applies). */
    public static Optional<AppArmorProfile> of(Pod pod, Container container) {
        if (container.getSecurityContext() != null && container.getSecurityContext().getAppArmorProfile() != null) {
            return Optional.of(container.getSecurityContext().getAppArmorProfile());
        }
        Map<String, String> annotations = pod.getMetadata() == null ? null : pod.getMetadata().getAnnotations();
        String annotation = annotations == null ? null : annotations.get(ANNOTATION_PREFIX + container.getName());
        if (annotation != null) {
            return fromAnnotation(annotation);
        }
        var podContext = pod.getSpec() == null ? null : pod.getSpec().getSecurityContext();
        return podContext == null ? Optional.empty() : Optional.ofNullable(podContext.getAppArmorProfile());
    }

    /**
     * An annotation's value as the field says it: {@code runtime/default}, {@code unconfined},
     * {@code localhost/<name>}; any other value names no profile, as upstream reads it (the apiserver refuses it).
     */
    static Optional<AppArmorProfile> fromAnnotation(String value) {
        AppArmorProfileBuilder profile = new AppArmorProfileBuilder();
        if (value.equals("runtime/default")) {
            return Optional.of(profile.withType(RUNTIME_DEFAULT).build());
        }
        if (value.equals("unconfined")) {
            return Optional.of(profile.withType(UNCONFINED).build());
        }
        if (value.startsWith("localhost/")) {
            return Optional.of(profile.withType(LOCALHOST).withLocalhostProfile(value.substring("localhost/".length()))
                    .build());
        }
        return Optional.empty();
    }
}
