package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.AppArmorProfile;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.PodSpecs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Upstream's AppArmor admit handler ({@code lifecycle.NewAppArmorAdmitHandler} over {@code apparmor.Validator}, the
 * {@code AppArmor} gate being on): a pending pod that asks for an AppArmor profile other than unconfined (the
 * {@code appArmorProfile} fields or the {@code container.apparmor.security.beta.kubernetes.io/} annotations) is refused
 * where the host does not enforce AppArmor ({@code Cannot enforce AppArmor: AppArmor is not enabled on the host}), or
 * with an empty localhost profile name. Where it does, jkubelet refuses the profiles it does not pass to Docker too:
 * Docker applies its own default profile ({@code docker-default}, the runtime's default) to every container, and
 * jkubelet passes no other. Thread-safe.
 */
public final class AppArmorAdmitHandler implements PodAdmitHandler {
    /** The reason of the refusal, the pod's status reason. */
    public static final String REASON = "AppArmor";
    static final String ANNOTATION_PREFIX = "container.apparmor.security.beta.kubernetes.io/";
    private static final String UNCONFINED = "Unconfined";
    private static final String RUNTIME_DEFAULT = "RuntimeDefault";
    private static final String LOCALHOST = "Localhost";

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
        if (pod.getStatus() == null || !"Pending".equals(pod.getStatus().getPhase())) {
            return PodAdmitResult.ADMIT;
        }
        List<String> profiles = requested(pod);
        if (profiles.stream().allMatch(UNCONFINED::equals)) {
            return PodAdmitResult.ADMIT;
        }
        if (!hostEnforces.getAsBoolean()) {
            return refuse("AppArmor is not enabled on the host");
        }
        for (String profile : profiles) {
            if (profile.equals(LOCALHOST + "/")) {
                return refuse("invalid empty AppArmor profile name: \"localhost/\"");
            }
            if (!profile.equals(RUNTIME_DEFAULT)) {
                return refuse("jkubelet passes no AppArmor profile but the runtime's default to Docker (asked: "
                        + profile + ")");
            }
        }
        return PodAdmitResult.ADMIT;
    }

    private static PodAdmitResult refuse(String why) {
        return PodAdmitResult.reject(REASON, "Cannot enforce AppArmor: " + why);
    }

    /** Every profile asked for, as RuntimeDefault, Unconfined or Localhost/name; the fields first, then annotations. */
    static List<String> requested(Pod pod) {
        List<String> profiles = new ArrayList<>();
        if (pod.getSpec() != null && pod.getSpec().getSecurityContext() != null) {
            add(profiles, pod.getSpec().getSecurityContext().getAppArmorProfile());
        }
        if (pod.getSpec() != null) {
            List<Container> all = new ArrayList<>(PodSpecs.initContainers(pod));
            all.addAll(PodSpecs.containers(pod));
            for (Container c : all) {
                if (c.getSecurityContext() != null) {
                    add(profiles, c.getSecurityContext().getAppArmorProfile());
                }
            }
        }
        Map<String, String> annotations = pod.getMetadata() == null ? null : pod.getMetadata().getAnnotations();
        if (annotations != null) {
            annotations.forEach((key, value) -> {
                if (key.startsWith(ANNOTATION_PREFIX)) {
                    profiles.add(switch (value) {
                        case "unconfined" -> UNCONFINED;
                        case "runtime/default" -> RUNTIME_DEFAULT;
                        default -> value.startsWith("localhost/") ? LOCALHOST + "/" + value.substring(10) : value;
                    });
                }
            });
        }
        return profiles;
    }

    private static void add(List<String> profiles, AppArmorProfile profile) {
        if (profile == null || profile.getType() == null) {
            return;
        }
        profiles.add(LOCALHOST.equals(profile.getType())
                ? LOCALHOST + "/" + (profile.getLocalhostProfile() == null ? "" : profile.getLocalhostProfile().strip())
                : profile.getType());
    }
}
