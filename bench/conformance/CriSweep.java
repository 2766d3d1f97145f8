import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.cri.CriRuntime;
import io.jkubelet.cri.CriRuntimeFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The pod sandboxes a conformance run left on a CRI runtime, removed through the runtime's CRI (RemovePodSandbox
 * takes the sandbox's containers with it). Removing them with {@code ctr} would leave the CRI plugin's own record of
 * them behind. Run with the agent's jar on the class path (bench/conformance/run does):
 *
 * <pre>
 *   java -cp agent-cmd/target/jkubelet.jar bench/conformance/CriSweep.java ENDPOINT FILE list     the sandbox IDs now, into FILE
 *   java -cp agent-cmd/target/jkubelet.jar bench/conformance/CriSweep.java ENDPOINT FILE remove   stop and remove every other sandbox
 * </pre>
 */
public final class CriSweep {
    public static void main(String[] args) throws Exception {
        if (args.length != 3 || !Set.of("list", "remove").contains(args[2])) {
            System.err.println("usage: CriSweep ENDPOINT FILE list|remove (got " + String.join(" ", args) + ")");
            System.exit(2);
        }
        Path file = Path.of(args[1]);
        try (CriRuntime runtime = CriRuntimeFactory.connect(args[0], null, Duration.ofMinutes(2))) {
            List<String> now = runtime.listPodSandbox(PodSandboxFilter.ALL).stream().map(PodSandbox::id).toList();
            if (args[2].equals("list")) {
                Files.write(file, now);
                return;
            }
            Set<String> before = Set.copyOf(Files.readAllLines(file));
            int removed = 0;
            for (PodSandbox sandbox : runtime.listPodSandbox(PodSandboxFilter.ALL)) {
                if (before.contains(sandbox.id())) {
                    continue;
                }
                // Stopped first: containerd refuses to remove a ready sandbox.
                runtime.stopPodSandbox(sandbox.id());
                runtime.removePodSandbox(sandbox.id());
                removed++;
            }
            System.err.println("[jkubelet] removed " + removed + " pod sandboxes the run left on " + args[0]);
        }
    }
}
