package io.jkubelet.cmd.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real kubectl through the real apiserver to a node on containerd, whose sessions the kubelet proxies to
 * containerd's streaming server: {@code exec -i} ends when kubectl's stdin ends, attach, and port-forward to a server
 * that listens on the pod's 127.0.0.1 only.
 */
@Tag("containerd")
class ContainerdKubectlIT extends RealClusterBase {
    /** Not KubectlIT's {@code box}: the test classes of a run share one control plane. */
    private static final String POD = "ctrd-box";

    static String[] agentArgs() {
        return new String[] {"--container-runtime-endpoint", ContainerdTestBase.ENDPOINT};
    }

    @BeforeAll
    static void aPodToWorkIn() {
        // busybox httpd serves /www on the pod's loopback only; the container writes a numbered line every 0.2 s.
        createShellPod(POD, "mkdir -p /www && echo loopback-page > /www/index.html && httpd -p 127.0.0.1:8080 -h /www;"
                + " i=0; while true; do i=$((i+1)); echo line $i; sleep 0.2; done");
        awaitRunning(POD);
    }

    /** The pods are the agent's on containerd: they go once it has stopped (the base class stops it again, idly). */
    @AfterAll
    static void removeThePodsFromContainerd() throws Exception {
        ContainerdTestBase.stopAndRemovePods(agent);
    }

    @Test
    void execWithStdinEndsWhenKubectlsInputEnds() {
        String input = "one\ntwo\n".repeat(5000);

        assertThat(kubectl.runWithInput(input, "exec", "-i", POD, "--", "cat").ok().out()).isEqualTo(input);
        assertThat(kubectl.runWithInput("one\ntwo\n", "exec", "-i", POD, "--", "wc", "-l").ok().out().strip())
                .isEqualTo("2");
    }

    @Test
    void attachStreamsTheRunningContainersOutput() throws Exception {
        assertAttachShowsNewLines(POD);
    }

    @Test
    void portForwardReachesAServerOnThePodsLoopback() throws Exception {
        assertPortForwardServes(POD, 8080, 2, "loopback-page\n");
    }
}
