package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;

/**
 * The pods bound to a node as the apiserver lists and watches them (upstream's {@code ListWatch} of pods with the
 * field selector {@code spec.nodeName=<node>}, run by a reflector): the implementation lists, watches from the
 * list's resourceVersion, resumes from the last resourceVersion seen after a dropped watch, relists on
 * {@code 410 Gone}, and retries with back-off for as long as it runs while the apiserver is away.
 */
public interface PodListWatch {

    /**
     * What the watch tells. {@link #listed} may be called while an event is being told, from another thread: a
     * handler that orders them synchronizes.
     */
    interface Handler {
        /** The first list is in: every pod bound to the node. Called once. */
        void listed(List<Pod> pods);

        /** A pod appeared. The pods of every list are told this way too, those of the first before or after {@link #listed}. */
        void added(Pod pod);

        /** A pod changed (the new object). */
        void updated(Pod pod);

        /** A pod is gone (its last known object). */
        void deleted(Pod pod);
    }

    /** A running list and watch. */
    interface Watch extends AutoCloseable {
        /** Stops it; nothing is told after. */
        @Override
        void close();
    }

    /** Starts listing and watching the pods with {@code spec.nodeName=nodeName}, in every namespace. */
    Watch start(String nodeName, Handler handler);
}
