package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.cmd.ContainerAccess;
import io.jkubelet.cmd.NodeView;
import io.jkubelet.core.pleg.RunningPod;
import io.jkubelet.docker.DockerRuntime;
import io.jkubelet.docker.DockerRuntimeFactory;
import io.jkubelet.server.KubeletHandlers;
import io.jkubelet.server.KubeletView;
import io.jkubelet.server.ServedHandlers;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The debugging handlers ({@code /containerLogs/}, {@code /run/}, {@code /logs/}) end to end over a running
 * agent: its real pods and statuses (read from its {@code /pods}), the log files it and Docker really wrote,
 * and commands really executed in its containers through the Docker runtime. The handlers are mounted on a
 * server started here, as the authenticated port will mount them (that port is built elsewhere); only the
 * list of running containers is taken from the pod statuses instead of the agent's PLEG.
 */
class DebuggingHandlersIT extends AgentTestBase {

    private DockerRuntime runtime;
    private ServedHandlers server;

    @AfterEach
    void closeServer() {
        if (server != null) {
            server.close();
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    @Test
    @Timeout(600)
    void containerLogsFollowPreviousAndRunAgainstARealNode() throws Exception {
        startAgent();
        agent.writeManifest("ticker.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: ticker}
                spec:
                  restartPolicy: Never
                  containers:
                  - {name: ticks, image: %1$s, command: ["sh", "-c", "for i in 1 2 3 4 5 6 7 8; do echo tick $i; sleep 1; done"]}
                  - {name: shell, image: %1$s, command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]}
                """.formatted(IMAGE));
        agent.writeManifest("crasher.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: crasher}
                spec:
                  containers:
                  - {name: c, image: %s, command: ["sh", "-c", "echo crashing now; sleep 1; echo to stderr >&2; sleep 1; exit 3"]}
                """.formatted(IMAGE));
        Pod ticker = awaitPod("ticker", Duration.ofSeconds(240), AgentTestBase::running);
        serveDebuggingHandlers();
        String tickerName = ticker.getMetadata().getName();

        // follow: lines arrive as the container writes them, and the stream ends when it exits.
        HttpResponse<String> followed = get("/containerLogs/default/" + tickerName + "/ticks?follow=true");
        assertThat(followed.statusCode()).isEqualTo(200);
        assertThat(followed.headers().firstValue("transfer-encoding")).hasValue("chunked");
        assertThat(followed.body()).isEqualTo("tick 1\ntick 2\ntick 3\ntick 4\ntick 5\ntick 6\ntick 7\ntick 8\n");
        assertThat(get("/containerLogs/default/" + tickerName + "/ticks?tailLines=2&timestamps=true").body())
                .matches("\\S+Z tick 7\n\\S+Z tick 8\n");

        // run: a command in the running container, its output back; a failing one is 500 with the CRI text.
        HttpResponse<String> ran = post("/run/default/" + tickerName + "/shell?cmd=echo%20hello%20from%20run");
        assertThat(ran.statusCode()).isEqualTo(200);
        assertThat(ran.body()).isEqualTo("hello from run\n");
        HttpResponse<String> failed = post("/run/default/" + tickerName + "/shell?cmd=ls%20/nonexistent");
        assertThat(failed.statusCode()).isEqualTo(500);
        assertThat(failed.body()).startsWith("command 'ls /nonexistent' exited with 1: ").contains("No such file or directory");
        awaitPod("ticker", Duration.ofSeconds(60), p -> container(p, "ticks").map(c -> c.getState().getTerminated() != null).orElse(false));
        assertThat(post("/run/default/" + tickerName + "/ticks?cmd=true").body()).isEqualTo("container not found (\"ticks\")");

        // previous: the instance before the restart, still on disk.
        Pod crasher = awaitPod("crasher", Duration.ofSeconds(240),
                p -> container(p, "c").map(c -> c.getRestartCount() >= 1 && c.getLastState().getTerminated() != null).orElse(false));
        String crasherName = crasher.getMetadata().getName();
        HttpResponse<String> previous = get("/containerLogs/default/" + crasherName + "/c?previous=true");
        assertThat(previous.statusCode()).isEqualTo(200);
        assertThat(previous.body()).isEqualTo("crashing now\nto stderr\n");
        HttpResponse<String> noPrevious = get("/containerLogs/default/" + tickerName + "/shell?previous=true");
        assertThat(noPrevious.statusCode()).isEqualTo(400);
        assertThat(noPrevious.body()).isEqualTo("previous terminated container \"shell\" in pod \"" + tickerName + "\" not found");

        // /logs/: the agent's log directory, with the pod directories it made.
        HttpResponse<String> listing = get("/logs/pods/");
        assertThat(listing.statusCode()).isEqualTo(200);
        assertThat(listing.body()).contains("<a href=\"default_" + crasherName + "_" + crasher.getMetadata().getUid() + "/\">");
    }

    private void serveDebuggingHandlers() throws Exception {
        runtime = DockerRuntimeFactory.connect("unix:///var/run/docker.sock");
        ContainerAccess access = new ContainerAccess(agent::pods, () -> runningFromStatus(agent.pods()), runtime);
        KubeletView view = NodeView.of(access);
        server = ServedHandlers.start(new KubeletHandlers(view, List.of(), new KubeletHandlers.DebuggingOptions(
                agent.podLogs.getParent(), true, Duration.ofMillis(200), Clock.systemUTC())), ServedHandlers.Group.DEBUGGING);
    }

    /** The running containers, as the PLEG would list them, from the pods' statuses. */
    private static List<RunningPod> runningFromStatus(List<Pod> pods) {
        List<RunningPod> out = new ArrayList<>();
        for (Pod p : pods) {
            List<RunningPod.Member> members = new ArrayList<>();
            if (p.getStatus() != null && p.getStatus().getContainerStatuses() != null) {
                for (ContainerStatus c : p.getStatus().getContainerStatuses()) {
                    if (c.getState() != null && c.getState().getRunning() != null && c.getContainerID() != null) {
                        members.add(new RunningPod.Member(id(c), c.getName(), c.getImage(), false, true));
                    }
                }
            }
            out.add(new RunningPod(p.getMetadata().getUid(), p.getMetadata().getName(), p.getMetadata().getNamespace(), members));
        }
        return out;
    }

    private HttpResponse<String> get(String path) throws Exception {
        return server.get(path);
    }

    private HttpResponse<String> post(String path) throws Exception {
        return server.post(path);
    }
}
