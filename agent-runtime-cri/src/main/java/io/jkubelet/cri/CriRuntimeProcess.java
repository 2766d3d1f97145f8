package io.jkubelet.cri;

import io.jkubelet.core.runtime.RuntimeProcess;
import io.jkubelet.core.runtime.RuntimeVersion;
import java.util.Map;
import java.util.Optional;

/**
 * A CRI runtime's own daemon, for the node's {@code runtime} system container, named by what the runtime's
 * {@code Version} call answers. containerd writes no pid file by default and is found by name, as upstream's
 * dockershim found it ({@code containerdProcessName}); CRI-O's daemon is {@code crio}. Any other runtime names no
 * process, and the node then has no {@code runtime} system container, as upstream's kubelet on a CRI runtime without
 * {@code --runtime-cgroups}.
 */
public final class CriRuntimeProcess {

    /** By the {@code runtimeName} a runtime's {@code Version} answers, its daemon's executable. */
    private static final Map<String, String> DAEMONS = Map.of("containerd", "containerd", "cri-o", "crio");

    private CriRuntimeProcess() {
    }

    /** The daemon of the runtime that answered {@code version}; empty for a runtime this does not know. */
    public static Optional<RuntimeProcess> of(RuntimeVersion version) {
        return Optional.ofNullable(DAEMONS.get(version.runtimeName())).map(RuntimeProcess::named);
    }
}
