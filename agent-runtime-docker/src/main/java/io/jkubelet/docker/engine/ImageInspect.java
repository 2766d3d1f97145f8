package io.jkubelet.docker.engine;

import java.util.List;

/** {@code GET /images/{name}/json}. {@code Config.User} is the image's user, which the kubelet checks. */
public record ImageInspect(String id, List<String> repoTags, List<String> repoDigests, String parent,
                           String created, Long size, ContainerConfig config) {}
