package io.jkubelet.core.runtime;

import java.util.List;

/**
 * A local image.
 *
 * @param id the image id ({@code sha256:...})
 * @param repoTags tags such as {@code busybox:1.36}
 * @param repoDigests digests such as {@code busybox@sha256:...}
 * @param size bytes on disk
 * @param uid the numeric user the image runs as, or {@code null} when it names a user or sets none
 * @param username the user name the image runs as, or empty
 */
public record Image(String id, List<String> repoTags, List<String> repoDigests, long size, Long uid, String username) {
    public Image {
        repoTags = List.copyOf(repoTags);
        repoDigests = List.copyOf(repoDigests);
        username = username == null ? "" : username;
    }

    /**
     * An image whose configuration names {@code configUser} (the image config's {@code User}: empty, a uid, a name,
     * or either with {@code :group}), split as a CRI runtime reports it (dockershim's and containerd's
     * {@code getUserFromImageUser}): the group is dropped, a number is the uid, anything else the user name.
     */
    public static Image withConfigUser(String id, List<String> repoTags, List<String> repoDigests, long size,
                                       String configUser) {
        String user = configUser == null ? "" : configUser;
        int colon = user.indexOf(':');
        if (colon >= 0) {
            user = user.substring(0, colon);
        }
        if (user.isEmpty()) {
            return new Image(id, repoTags, repoDigests, size, null, "");
        }
        try {
            return new Image(id, repoTags, repoDigests, size, Long.parseLong(user), "");
        } catch (NumberFormatException e) {
            return new Image(id, repoTags, repoDigests, size, null, user);
        }
    }
}
