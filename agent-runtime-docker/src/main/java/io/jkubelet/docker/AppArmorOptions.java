package io.jkubelet.docker;

import io.jkubelet.core.runtime.SecurityProfile;

import java.util.List;

/**
 * An AppArmor profile as Docker's {@code SecurityOpt}, as dockershim's {@code getAppArmorOpts}: none asked for and
 * RuntimeDefault are no option (Docker applies {@code docker-default} where the host has AppArmor), Unconfined is
 * {@code apparmor=unconfined}, Localhost names the profile loaded on the node. Docker ignores them on a host without
 * AppArmor, where admission refused every profile but Unconfined.
 */
final class AppArmorOptions {
    private AppArmorOptions() {}

    /** @param profile the container's profile, or null for none */
    static List<String> of(SecurityProfile profile) {
        if (profile == null) {
            return List.of();
        }
        return switch (profile.type()) {
            case RUNTIME_DEFAULT -> List.of();
            case UNCONFINED -> List.of("apparmor=unconfined");
            case LOCALHOST -> List.of("apparmor=" + profile.localhostRef());
        };
    }
}
