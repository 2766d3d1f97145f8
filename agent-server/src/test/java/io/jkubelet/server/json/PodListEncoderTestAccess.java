package io.jkubelet.server.json;

import io.fabric8.kubernetes.api.model.Pod;

/** Lets tests in other packages build the rich sample pod. */
public final class PodListEncoderTestAccess {
    private PodListEncoderTestAccess() {}

    public static Pod richPod() {
        return PodListEncoderTest.richPod();
    }
}
