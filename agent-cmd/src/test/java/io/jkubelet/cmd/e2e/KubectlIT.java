package io.jkubelet.cmd.e2e;

import io.jkubelet.cmd.e2e.apiserver.Kubectl;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The real kubectl through the real apiserver to this node's kubelet: exec (a command, {@code -i} with stdin,
 * {@code -t} with a terminal), attach, port-forward, cp both ways, and logs with its options.
 */
class KubectlIT extends RealClusterBase {

    @BeforeAll
    static void aPodToWorkIn() {
        // busybox httpd serves /www on 8080; the container writes a numbered line every 0.2 s to stdout.
        createShellPod("box", "mkdir -p /www && echo page > /www/index.html && httpd -p 8080 -h /www;"
                + " i=0; while true; do i=$((i+1)); echo line $i; sleep 0.2; done");
        awaitRunning("box");
    }

    @Test
    void execRunsACommandAndReportsItsExitCode() {
        assertThat(kubectl.run("exec", "box", "--", "sh", "-c", "echo out; echo err >&2").ok().out()).isEqualTo("out\n");
        Kubectl.Result failed = kubectl.run("exec", "box", "--", "sh", "-c", "exit 3");
        assertThat(failed.exitCode()).isEqualTo(3);
        assertThat(failed.err()).contains("command terminated with exit code 3");
        assertThat(kubectl.run("exec", "box", "-c", "app", "--", "hostname").ok().out()).isEqualTo("box\n");
    }

    @Test
    void execWithStdinPassesItThrough() {
        assertThat(kubectl.runWithInput("one\ntwo\n", "exec", "-i", "box", "--", "sh", "-c", "cat | wc -l").ok().out().strip())
                .isEqualTo("2");
    }

    @Test
    void execWithATerminalRunsAnInteractiveShell() throws Exception {
        // kubectl -t needs a terminal of its own: script(1) gives it one.
        String out = underATerminal("kubectl exec -it box -- sh", "tty; echo $((6*7)); exit 0\n");
        assertThat(out).contains("/dev/pts/").contains("42");
    }

    @Test
    void attachStreamsTheRunningContainersOutput() throws Exception {
        assertAttachShowsNewLines("box");
    }

    @Test
    void portForwardReachesAPortInThePod() throws Exception {
        assertPortForwardServes("box", 8080, 3, "page\n");
    }

    @Test
    void cpCopiesFilesIntoAndOutOfThePod() throws Exception {
        Path local = Files.createTempDirectory("kubectl-cp");
        try {
            Files.writeString(local.resolve("in.txt"), "into the pod\n");
            kubectl.run("cp", local.resolve("in.txt").toString(), "box:/tmp/in.txt").ok();
            assertThat(exec("box", "cat /tmp/in.txt")).isEqualTo("into the pod\n");
            exec("box", "mkdir -p /tmp/d && echo out of it > /tmp/d/out.txt");
            kubectl.run("cp", "box:/tmp/d", local.resolve("d").toString()).ok();
            assertThat(Files.readString(local.resolve("d/out.txt"))).isEqualTo("out of it\n");
        } finally {
            io.jkubelet.cmd.e2e.cluster.ControlPlane.deleteTree(local);
        }
    }

    @Test
    void logsHonourTailTimestampsSinceAndFollow() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> kubectl.run("logs", "box").out().lines().count() >= 5);
        List<String> tail = kubectl.run("logs", "box", "--tail=2").ok().out().lines().toList();
        assertThat(tail).hasSize(2).allMatch(l -> l.startsWith("line "));
        String stamped = kubectl.run("logs", "box", "--tail=1", "--timestamps").ok().out().strip();
        Instant at = Instant.parse(stamped.substring(0, stamped.indexOf(' ')));
        assertThat(at).isAfter(Instant.now().minusSeconds(60)).isBefore(Instant.now().plusSeconds(5));
        assertThat(stamped.substring(stamped.indexOf(' ') + 1)).startsWith("line ");
        // --since: the lines of the last 2 s are far fewer than everything written so far.
        Thread.sleep(3000);
        long all = kubectl.run("logs", "box").ok().out().lines().count();
        long recent = kubectl.run("logs", "box", "--since=2s").ok().out().lines().count();
        assertThat(recent).isPositive().isLessThan(all);
        // -f keeps streaming lines written after it started.
        Process follow = kubectlProcess("logs", "-f", "--tail=1", "box");
        try {
            int first = Integer.parseInt(readLine(follow, l -> l.startsWith("line ")).substring(5).strip());
            int next = Integer.parseInt(readLine(follow, l -> l.startsWith("line ")).substring(5).strip());
            assertThat(next).isEqualTo(first + 1);
        } finally {
            follow.destroy();
            follow.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void logsPreviousShowsTheContainerBeforeItsRestart() {
        createShellPod("restarts", "echo run $(cat /proc/uptime | cut -d. -f1)-$$; sleep 2; exit 1");
        await("a restart").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            var p = pod("restarts");
            return p != null && p.getStatus().getContainerStatuses() != null && !p.getStatus().getContainerStatuses().isEmpty()
                    && p.getStatus().getContainerStatuses().getFirst().getRestartCount() >= 1
                    && p.getStatus().getContainerStatuses().getFirst().getState().getRunning() != null;
        });
        String previous = kubectl.run("logs", "restarts", "--previous").ok().out();
        String current = kubectl.run("logs", "restarts").ok().out();
        assertThat(previous).startsWith("run ");
        assertThat(current).startsWith("run ").isNotEqualTo(previous);
        kubectl.run("delete", "pod", "restarts", "--wait=false").ok();
    }

    /** Runs {@code command} under script(1), a pseudo-terminal, typing {@code input}; everything it printed. */
    private static String underATerminal(String command, String input) throws Exception {
        String full = command.replaceFirst("^kubectl ", Kubectl.binary() + " --kubeconfig " + cluster.adminKubeconfig + " ");
        Process p = new ProcessBuilder("script", "-qec", full, "/dev/null").redirectErrorStream(true).start();
        p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().flush();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl exec -it did not end");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
