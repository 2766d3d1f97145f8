package io.jkubelet.docker;

import io.jkubelet.core.runtime.Labels;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Docker labels dockershim puts on its containers. Docker has no annotations, so CRI annotations become
 * labels prefixed {@value #ANNOTATION_PREFIX}; the shim's own bookkeeping labels are removed again before
 * labels and annotations go back to the core, which gets exactly what it passed.
 */
final class DockerLabels {
    private DockerLabels() {}

    static final String ANNOTATION_PREFIX = "annotation.";
    /** {@value #TYPE_SANDBOX} or {@value #TYPE_CONTAINER}: tells sandboxes from app containers. */
    static final String CONTAINER_TYPE = "io.kubernetes.docker.type";
    static final String TYPE_SANDBOX = "podsandbox";
    static final String TYPE_CONTAINER = "container";
    /** On app containers: the id of their sandbox. */
    static final String SANDBOX_ID = "io.kubernetes.sandbox.id";
    /** On app containers: the CRI log path, which is a symlink to Docker's json log file. */
    static final String CONTAINER_LOG_PATH = "io.kubernetes.container.logpath";

    private static final Set<String> INTERNAL = Set.of(CONTAINER_TYPE, SANDBOX_ID, CONTAINER_LOG_PATH);

    /** The Docker labels of a sandbox: its CRI labels, its annotations, its type and the name {@code POD}. */
    static Map<String, String> forSandbox(Map<String, String> labels, Map<String, String> annotations) {
        Map<String, String> merged = merge(labels, annotations);
        merged.put(CONTAINER_TYPE, TYPE_SANDBOX);
        // dockershim names the sandbox container POD for tools that group containers by name (summary API).
        merged.put(Labels.CONTAINER_NAME, DockerNames.SANDBOX_CONTAINER_NAME);
        return merged;
    }

    /** The Docker labels of an app container: its CRI labels, annotations, type, sandbox and log path. */
    static Map<String, String> forContainer(Map<String, String> labels, Map<String, String> annotations,
                                            String sandboxId, String logPath) {
        Map<String, String> merged = merge(labels, annotations);
        merged.put(CONTAINER_TYPE, TYPE_CONTAINER);
        merged.put(SANDBOX_ID, sandboxId);
        merged.put(CONTAINER_LOG_PATH, logPath);
        return merged;
    }

    /** The CRI labels and annotations back from Docker labels. */
    static Extracted extract(Map<String, String> dockerLabels) {
        Map<String, String> labels = new HashMap<>();
        Map<String, String> annotations = new HashMap<>();
        if (dockerLabels == null) {
            return new Extracted(labels, annotations);
        }
        boolean sandbox = TYPE_SANDBOX.equals(dockerLabels.get(CONTAINER_TYPE));
        for (Map.Entry<String, String> e : dockerLabels.entrySet()) {
            String key = e.getKey();
            if (INTERNAL.contains(key) || (sandbox && key.equals(Labels.CONTAINER_NAME))) {
                continue;
            }
            if (key.startsWith(ANNOTATION_PREFIX)) {
                annotations.put(key.substring(ANNOTATION_PREFIX.length()), e.getValue());
            } else {
                labels.put(key, e.getValue());
            }
        }
        return new Extracted(labels, annotations);
    }

    record Extracted(Map<String, String> labels, Map<String, String> annotations) {}

    private static Map<String, String> merge(Map<String, String> labels, Map<String, String> annotations) {
        Map<String, String> merged = new HashMap<>(labels);
        annotations.forEach((k, v) -> merged.put(ANNOTATION_PREFIX + k, v));
        return merged;
    }

    /**
     * A list call's filters for containers with all these labels: {@code label} to {@code key=value} for each, which
     * Docker matches all of.
     */
    static Map<String, List<String>> filterFor(Map<String, String> labels) {
        List<String> values = new ArrayList<>();
        labels.forEach((k, v) -> values.add(v == null ? k : k + "=" + v));
        Map<String, List<String>> filters = new HashMap<>();
        filters.put("label", values);
        return filters;
    }
}
