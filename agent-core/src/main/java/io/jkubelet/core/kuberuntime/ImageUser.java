package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.runtime.Image;

import java.util.Optional;

/**
 * The user an image runs as, as the kubelet learns it from the runtime's image status (upstream
 * {@code getImageUser}): the numeric uid when the image names one, else its user name; an image that names neither,
 * or that the runtime does not know, runs as root (uid 0). {@link #of} sets exactly one of the two.
 *
 * @param uid the numeric user, or null when the image names its user
 * @param username the user's name when {@code uid} is null; else empty
 */
public record ImageUser(Long uid, String username) {
    /** An image that names no user: root, as the runtime runs it. */
    public static final ImageUser ROOT = new ImageUser(0L, "");

    public ImageUser {
        username = username == null ? "" : username;
    }

    public static ImageUser uid(long uid) {
        return new ImageUser(uid, "");
    }

    public static ImageUser named(String username) {
        return new ImageUser(null, username);
    }

    /** From the runtime's status of the container's image (empty when the runtime does not have it). */
    public static ImageUser of(Optional<Image> status) {
        if (status.isEmpty()) {
            return ROOT;
        }
        Image image = status.get();
        if (image.uid() != null) {
            return uid(image.uid());
        }
        return image.username().isEmpty() ? ROOT : named(image.username());
    }
}
