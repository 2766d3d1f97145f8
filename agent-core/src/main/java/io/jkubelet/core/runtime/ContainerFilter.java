package io.jkubelet.core.runtime;

import java.util.Map;

/** Which containers to list; a {@code null} field matches everything. */
public record ContainerFilter(String id, ContainerState state, String podSandboxId, Map<String, String> labelSelector) {
    public static final ContainerFilter ALL = new ContainerFilter(null, null, null, null);

    public static ContainerFilter forPodUid(String uid) {
        return new ContainerFilter(null, null, null, Map.of(Labels.POD_UID, uid));
    }
}
