package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.AppArmorProfile;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.AppArmorProfiles;
import io.jkubelet.core.podutil.PodSpecs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Upstream's AppArmor admit handler ({@code lifecycle.NewAppArmorAdmitHandler} over {@code apparmor.Validator}, the
 * {@code AppArmor} gate being on): a pending pod that asks for an AppArmor profile other than unconfined (the
 * {@code appArmorProfile} fields or the {@code container.apparmor.security.beta.kubernetes.io/} annotations) is refused
 * where the host does not enforce AppArmor ({@code Cannot enforce AppArmor: AppArmor is not enabled on the host}), or
 * when a container's Localhost profile has no name. Where the host enforces it, each container's profile goes to the
 * runtime ({@link AppArmorProfiles}, the runtime config's {@code apparmor}). Thread-safe.
 */
public final class AppArmorAdmitHandler implements PodAdmitHandler {
    /** The reason of the refusal, the pod's status reason. */
    public static final String REASON = "AppArmor";

    private final BooleanSupplier hostEnforces;

    /** @param hostEnforces whether the kernel enforces AppArmor */
    public AppArmorAdmitHandler(BooleanSupplier hostEnforces) {
        this.hostEnforces = hostEnforces;
    }

    /** This host: AppArmor is enforced when {@code /sys/module/apparmor/parameters/enabled} says Y (runc's check). */
    public static AppArmorAdmitHandler forHost() {
        return new AppArmorAdmitHandler(() -> {
            try {
                return Files.readString(Path.of("/sys/module/apparmor/parameters/enabled")).startsWith("Y");
            } catch (IOException e) {
                return false;
            }
        });
    }

    @Override
    public PodAdmitResult admit(Pod pod, List<Pod> otherPods) {
        // As upstream: a pod already running or terminated is not checked again.
        if (pod.getStatus() == null || !"Pending".equals(pod.getStatus().getPhase()) || !isRequired(pod)) {
            return PodAdmitResult.ADMIT;
        }
        if (!hostEnforces.getAsBoolean()) {
            return refuse("AppArmor is not enabled on the host");
        }
        for (Container c : PodSpecs.allContainers(pod)) {
            Optional<AppArmorProfile> profile = AppArmorProfiles.of(pod, c);
            if (profile.isPresent() && AppArmorProfiles.LOCALHOST.equals(profile.get().getType())
                    && (profile.get().getLocalhostProfile() == null || profile.get().getLocalhostProfile().isBlank())) {
                return refuse("invalid empty AppArmor profile name: \"localhost/\"");
            }
        }
        return PodAdmitResult.ADMIT;
    }

    private static PodAdmitResult refuse(String why) {
        return PodAdmitResult.reject(REASON, "Cannot enforce AppArmor: " + why);
    }

    /** Upstream's {@code isRequired}: a profile other than unconfined is asked for, by a field or an annotation. */
    static boolean isRequired(Pod pod) {
        var podContext = pod.getSpec() == null ? null : pod.getSpec().getSecurityContext();
        if (podContext != null && confining(podContext.getAppArmorProfile())) {
            return true;
        }
        for (Container c : PodSpecs.allContainers(pod)) {
            if (c.getSecurityContext() != null && confining(c.getSecurityContext().getAppArmorProfile())) {
                return true;
            }
        }
        Map<String, String> annotations = pod.getMetadata() == null ? null : pod.getMetadata().getAnnotations();
        return annotations != null && annotations.entrySet().stream()
                .anyMatch(a -> a.getKey().startsWith(AppArmorProfiles.ANNOTATION_PREFIX)
                        && !"unconfined".equals(a.getValue()));
    }

    private static boolean confining(AppArmorProfile profile) {
        return profile != null && !AppArmorProfiles.UNCONFINED.equals(profile.getType());
    }
}
