package io.jkubelet.core.pod;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.config.ConfigAnnotations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/**
 * Creates and deletes the mirror pods of static pods (upstream {@code basicMirrorClient}). Called from pod workers:
 * the calls block on the apiserver.
 */
public final class MirrorClient {
    private static final Logger log = LoggerFactory.getLogger(MirrorClient.class);

    private final MirrorPodClient client;
    private final String nodeName;

    public MirrorClient(MirrorPodClient client, String nodeName) {
        this.client = client;
        this.nodeName = nodeName;
    }

    /**
     * Creates the mirror pod of {@code staticPod}, owned by this node's Node; an existing mirror pod of the same
     * hash counts as created. Returns the mirror pod as the apiserver has it; empty, with a log line, when the node
     * is not registered yet.
     *
     * @throws ApiException when the apiserver refuses or cannot be reached
     */
    public Optional<Pod> createMirrorPod(Pod staticPod) {
        Node node = client.getNode(nodeName);
        if (node == null) {
            log.info("Not creating a mirror pod for static pod {}: node {} is not registered yet",
                    ConfigAnnotations.podFullName(staticPod), nodeName);
            return Optional.empty();
        }
        Pod mirror = MirrorPods.mirrorOf(staticPod, nodeName, node.getMetadata().getUid());
        try {
            return Optional.of(client.createPod(mirror));
        } catch (ApiException e) {
            if (e.code() == 409) {
                Pod existing = client.getPod(mirror.getMetadata().getNamespace(), mirror.getMetadata().getName());
                if (existing != null && MirrorPods.isMirrorPodOf(existing, staticPod)) {
                    return Optional.of(existing);
                }
            }
            throw e;
        }
    }

    /**
     * Deletes a mirror pod, only the one of {@code uid}: a newer pod of the same name is left alone. Gone already
     * counts as deleted.
     */
    public void deleteMirrorPod(Pod mirror) {
        PodDeleter.DeleteResult r = client.deletePod(mirror.getMetadata().getNamespace(), mirror.getMetadata().getName(),
                mirror.getMetadata().getUid(), 0);
        log.info("Deleted mirror pod {} ({}): {}", ConfigAnnotations.podFullName(mirror), mirror.getMetadata().getUid(), r);
    }
}
