package io.jkubelet.cmd.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The docker CLI, as an operator would use it to look at what the agent did. */
final class Docker {
    private Docker() {}

    record Result(int exitCode, String out) {}

    static Result run(String... args) {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "docker";
        System.arraycopy(args, 0, cmd, 1, args.length);
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("timed out: " + String.join(" ", cmd));
            }
            return new Result(p.exitValue(), out.strip());
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + Arrays.toString(cmd) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** IDs of the node's containers (all states) matching extra filters, e.g. {@code label=io.kubernetes.container.name=web}. */
    static List<String> ids(String nodeName, String... filters) {
        String[] args = new String[4 + 2 * filters.length];
        args[0] = "ps";
        args[1] = "-aq";
        args[2] = "--filter";
        args[3] = "label=io.jkubelet.node.name=" + nodeName;
        for (int i = 0; i < filters.length; i++) {
            args[4 + 2 * i] = "--filter";
            args[5 + 2 * i] = filters[i];
        }
        String out = run(args).out();
        return out.isEmpty() ? List.of() : List.of(out.split("\\s+"));
    }

    static List<String> running(String nodeName, String... filters) {
        String[] f = Arrays.copyOf(filters, filters.length + 1);
        f[filters.length] = "status=running";
        return ids(nodeName, f);
    }

    static String inspect(String id, String format) {
        return run("inspect", "--format", format, id).out();
    }

    static Result exec(String id, String... command) {
        String[] args = new String[command.length + 2];
        args[0] = "exec";
        args[1] = id;
        System.arraycopy(command, 0, args, 2, command.length);
        return run(args);
    }

    /** Removes every container the node's agent left behind. */
    static void removeAll(String nodeName) {
        remove(ids(nodeName));
    }

    /** One {@code docker rm -f} for all the containers. */
    private static void remove(List<String> ids) {
        if (!ids.isEmpty()) {
            List<String> args = new java.util.ArrayList<>(List.of("rm", "-f"));
            args.addAll(ids);
            run(args.toArray(String[]::new));
        }
    }

    /**
     * Removes every container the upstream kubelet's dockershim left: those it labels as a pod's
     * ({@code io.kubernetes.docker.type}) that carry no jkubelet node label. Tests run one upstream kubelet at a time.
     */
    static void removeUpstreamPods() {
        String out = run("ps", "-a", "--filter", "label=io.kubernetes.docker.type",
                "--format", "{{.ID}} {{.Label \"io.jkubelet.node.name\"}}").out();
        List<String> ids = out.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.contains(" "))
                .toList();
        remove(ids);
    }
}
