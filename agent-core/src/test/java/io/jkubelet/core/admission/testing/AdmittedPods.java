package io.jkubelet.core.admission.testing;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.admission.PodAdmitHandler;
import io.jkubelet.core.admission.PodAdmitResult;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The kubelet's active pods as its admission sees them (upstream {@code canAdmitPod} then {@code podManager.AddPod}):
 * a pod is among them while its admission runs, so that a manager asked for it finds it, and leaves them when it is
 * refused. Hand {@link #list()} to the managers as their active pods.
 */
public final class AdmittedPods {
    private final List<Pod> active = new CopyOnWriteArrayList<>();

    /** The active pods, live. */
    public List<Pod> list() {
        return active;
    }

    /** Admits {@code pod} through {@code handler} among the pods already active. */
    public PodAdmitResult admit(PodAdmitHandler handler, Pod pod) {
        List<Pod> others = List.copyOf(active);
        active.add(pod);
        PodAdmitResult r = handler.admit(pod, others);
        if (!r.admit()) {
            active.remove(pod);
        }
        return r;
    }
}
