package io.jkubelet.core.runtime;

import java.util.Map;

/**
 * Which sandboxes to list; a {@code null} field matches everything.
 *
 * @param labelSelector labels a sandbox must all carry with these values
 */
public record PodSandboxFilter(String id, PodSandboxState state, Map<String, String> labelSelector) {
    public static final PodSandboxFilter ALL = new PodSandboxFilter(null, null, null);

    public static PodSandboxFilter forPodUid(String uid) {
        return new PodSandboxFilter(null, null, Map.of(Labels.POD_UID, uid));
    }
}
