package io.jkubelet.core.cm.topologymanager;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.admission.PodAdmitResult;

/** Upstream's {@code none} scope, the {@code none} policy's: no hints asked, each container's resources allocated. */
final class NoneScope extends Scope {
    NoneScope() {
        super(new NonePolicy());
    }

    @Override
    String name() {
        return "none";
    }

    @Override
    PodAdmitResult admit(Pod pod) {
        return admitPolicyNone(pod);
    }
}
