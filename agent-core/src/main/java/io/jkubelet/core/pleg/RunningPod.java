package io.jkubelet.core.pleg;

import java.util.ArrayList;
import java.util.List;

/** A pod as the runtime shows it, from sandbox and container labels (upstream {@code kubecontainer.Pod}). */
public record RunningPod(String uid, String name, String namespace, List<Member> members) {
    public RunningPod {
        members = List.copyOf(members);
    }

    /**
     * One sandbox or container of the pod.
     *
     * @param sandbox whether this is the pod's sandbox
     * @param running whether it runs (for a sandbox: is ready)
     */
    public record Member(String id, String name, String image, boolean sandbox, boolean running) {}

    /** Collects a pod's members during a relist. */
    static final class Builder {
        private final String uid;
        private final String name;
        private final String namespace;
        private final List<Member> members = new ArrayList<>();

        Builder(String uid, String name, String namespace) {
            this.uid = uid;
            this.name = name;
            this.namespace = namespace;
        }

        Builder add(Member m) {
            members.add(m);
            return this;
        }

        RunningPod build() {
            return new RunningPod(uid, name, namespace, members);
        }
    }
}
