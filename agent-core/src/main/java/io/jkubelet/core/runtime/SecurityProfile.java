package io.jkubelet.core.runtime;

import java.util.Objects;

/**
 * A seccomp or AppArmor profile (CRI {@code SecurityProfile}).
 *
 * @param type which profile
 * @param localhostRef for {@link Type#LOCALHOST} only, else empty: a seccomp profile file's absolute path on the
 *     node, or the name of an AppArmor profile loaded on the node
 */
public record SecurityProfile(Type type, String localhostRef) {

    /** CRI's {@code SecurityProfile_ProfileType}. */
    public enum Type {
        /** The runtime's default profile (Docker's default seccomp profile, its {@code docker-default} AppArmor one). */
        RUNTIME_DEFAULT,
        /** No profile. */
        UNCONFINED,
        /** A profile on the node: a seccomp file the runtime reads, an AppArmor profile loaded in the kernel. */
        LOCALHOST
    }

    public static final SecurityProfile RUNTIME_DEFAULT = new SecurityProfile(Type.RUNTIME_DEFAULT, "");
    public static final SecurityProfile UNCONFINED = new SecurityProfile(Type.UNCONFINED, "");

    public SecurityProfile {
        Objects.requireNonNull(type, "type");
        localhostRef = localhostRef == null ? "" : localhostRef;
        if (type == Type.LOCALHOST && localhostRef.isEmpty()) {
            throw new IllegalArgumentException("a Localhost profile needs the profile's path or name");
        }
    }

    /** @param ref a seccomp profile's absolute path, or an AppArmor profile's name */
    public static SecurityProfile localhost(String ref) {
        return new SecurityProfile(Type.LOCALHOST, ref);
    }
}
