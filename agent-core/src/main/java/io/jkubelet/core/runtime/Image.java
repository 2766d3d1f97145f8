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
    }
}
