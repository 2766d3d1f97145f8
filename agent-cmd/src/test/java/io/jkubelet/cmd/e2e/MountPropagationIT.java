package io.jkubelet.cmd.e2e;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The root directory's shared mount (upstream's {@code MakeRShared}) where the host's {@code /} is private, as on this
 * project's machines: the agent's start bind-mounts {@code --root-dir} on itself and makes it rshared, so that a
 * privileged pod's {@code Bidirectional} mount of a directory below it (a CSI node plugin's) shows on the host what the
 * container mounts there. Without it Docker refuses the container ("... is not a shared mount").
 */
class MountPropagationIT extends AgentTestBase {

    @Test
    void theRootDirectoryIsMadeRSharedOnceAndAPodsBidirectionalMountReachesTheHost() throws Exception {
        Path root = dir.resolve("root");
        assumeTrue(findmnt("-o", "PROPAGATION", "-T", dir.toString()).equals(List.of("private")),
                "the test folder is on a shared mount: the agent has nothing to do there");
        startAgent();
        assertThat(findmnt("-o", "PROPAGATION", "--mountpoint", root.toString())).as(agent.logText())
                .containsExactly("shared");
        assertThat(agent.logText()).contains("Bind-mounting \"" + root + "\" with shared mount propagation");

        // Privileged containers start here only through the runc wrapper (root lacks CAP_SYS_RESOURCE).
        DockerDefaultRuntime.wrapper();
        try {
            agent.writeManifest("plugin.yaml", """
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: plugin}
                    spec:
                      containers:
                      - name: c
                        image: %s
                        command: ["sh", "-c", "mkdir -p /plugin/x && mount -t tmpfs tmpfs /plugin/x && echo hi > /plugin/x/f && exec sleep 3600"]
                        securityContext: {privileged: true}
                        volumeMounts: [{name: plugins, mountPath: /plugin, mountPropagation: Bidirectional}]
                      volumes:
                      - {name: plugins, hostPath: {path: %s, type: DirectoryOrCreate}}
                    """.formatted(IMAGE, root.resolve("plugins/demo")));
            awaitPod("plugin", Duration.ofSeconds(60), AgentOnRuntimeBase::running);
            Path mounted = root.resolve("plugins/demo/x");
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                    .until(() -> Files.isRegularFile(mounted.resolve("f")));
            assertThat(findmnt("-o", "FSTYPE", "--mountpoint", mounted.toString())).as("the container's mount, on the host")
                    .containsExactly("tmpfs");
            assertThat(Files.readString(mounted.resolve("f"))).isEqualTo("hi\n");
        } finally {
            DockerDefaultRuntime.runc();
        }

        // The mount outlives the agent; the next start finds it shared and mounts nothing again.
        agent.stop();
        agent.start();
        assertThat(findmnt("-o", "PROPAGATION", "--mountpoint", root.toString())).containsExactly("shared");
        assertThat(agent.logText().split("Bind-mounting", -1)).as("one bind mount over two starts").hasSize(2);
        assertThat(agent.logText()).contains("Directory " + root + " is already on a shared mount");
    }

    /** {@code findmnt -n ARGS}: one line per mount, none when nothing matches. */
    private static List<String> findmnt(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("findmnt", "-n"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out.lines().map(String::trim).filter(l -> !l.isEmpty()).toList();
    }
}
