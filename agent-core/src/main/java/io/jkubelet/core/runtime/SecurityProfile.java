package io.jkubelet.core.runtime;

import java.util.Objects;

/**
 * A seccomp profile (CRI {@code SecurityProfile}).
 *
 * @param type which profile
 * @param localhostRef the profile file's absolute path on the node, for {@link Type#LOCALHOST} only; else empty
 */
public record SecurityProfile(Type type, String localhostRef) {

    /** CRI's {@code SecurityProfile_ProfileType}. */
    public enum Type {
        /** The runtime's default profile (Docker's default seccomp profile). */
        RUNTIME_DEFAULT,
        /** No profile. */
        UNCONFINED,
        /** A profile file on the node, read by the runtime. */
        LOCALHOST
    }

    public static final SecurityProfile RUNTIME_DEFAULT = new SecurityProfile(Type.RUNTIME_DEFAULT, "");
    public static final SecurityProfile UNCONFINED = new SecurityProfile(Type.UNCONFINED, "");

    public SecurityProfile {
        Objects.requireNonNull(type, "type");
        localhostRef = localhostRef == null ? "" : localhostRef;
        if (type == Type.LOCALHOST && localhostRef.isEmpty()) {
            throw new IllegalArgumentException("a Localhost seccomp profile needs the profile's path");
        }
    }

    public static SecurityProfile localhost(String path) {
        return new SecurityProfile(Type.LOCALHOST, path);
    }
}
