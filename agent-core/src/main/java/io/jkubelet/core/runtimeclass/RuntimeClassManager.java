package io.jkubelet.core.runtimeclass;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.jkubelet.core.apierrors.ApiException;

import java.util.Objects;

/**
 * Resolves a pod's {@code spec.runtimeClassName} to the runtime handler its sandbox is run with (upstream's
 * {@code runtimeclass.Manager}, {@code LookupRuntimeHandler}). No name is the default RuntimeClass, the runtime's
 * default handler {@code ""}. A name the lister does not have fails with the apiserver's NotFound, as upstream's: the
 * pod's sandbox is not made, and its sync is tried again with back-off, by when the RuntimeClass may exist.
 *
 * <p>Upstream makes no manager without an apiserver and then runs such pods with the default handler, saying nothing;
 * {@link #standalone()} fails them instead, naming why, as jkubelet's other apiserver-only parts of a pod (configMap,
 * secret and persistentVolumeClaim volumes) fail where they are used on a standalone node. Thread-safe.
 */
public final class RuntimeClassManager {
    /** The handler of the default RuntimeClass: the runtime's own default. */
    public static final String DEFAULT_HANDLER = "";
    /** The group and resource upstream's NotFound names. */
    static final String GROUP = "node.k8s.io";
    static final String RESOURCE = "runtimeclasses";

    /** Null on a standalone node. */
    private final RuntimeClassLister lister;

    private RuntimeClassManager(RuntimeClassLister lister) {
        this.lister = lister;
    }

    /** A cluster node's manager, reading the apiserver's RuntimeClasses through {@code lister}. */
    public static RuntimeClassManager of(RuntimeClassLister lister) {
        return new RuntimeClassManager(Objects.requireNonNull(lister, "lister"));
    }

    /** A node without an apiserver: only the default RuntimeClass resolves. */
    public static RuntimeClassManager standalone() {
        return new RuntimeClassManager(null);
    }

    /**
     * The runtime handler of the RuntimeClass named {@code runtimeClassName}.
     *
     * @param runtimeClassName the pod's {@code spec.runtimeClassName}; null or empty for the default
     * @throws ApiException 404 ({@code runtimeclasses.node.k8s.io "x" not found}) when the cluster has no such
     *     RuntimeClass
     * @throws IllegalStateException on a standalone node, for any RuntimeClass but the default
     */
    public String lookupRuntimeHandler(String runtimeClassName) {
        if (runtimeClassName == null || runtimeClassName.isEmpty()) {
            return DEFAULT_HANDLER;
        }
        if (lister == null) {
            throw new IllegalStateException("RuntimeClass \"" + runtimeClassName
                    + "\" needs the apiserver, and this node runs standalone");
        }
        return lister.get(runtimeClassName).map(rc -> rc.getHandler() == null ? DEFAULT_HANDLER : rc.getHandler())
                .orElseThrow(() -> notFound(runtimeClassName));
    }

    /** Upstream's {@code errors.NewNotFound} for a RuntimeClass: its message is what the pod's event shows. */
    private static ApiException notFound(String name) {
        String message = RESOURCE + "." + GROUP + " \"" + name + "\" not found";
        return new ApiException(message, 404, new StatusBuilder().withStatus("Failure").withCode(404)
                .withReason("NotFound").withMessage(message).withNewDetails().withName(name).withGroup(GROUP)
                .withKind(RESOURCE).endDetails().build(), null);
    }
}
