package io.jkubelet.core.lifecycle;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.LifecycleHandlerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.jkubelet.core.testing.Pods.container;
import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HandlerRunnerTest {
    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final Container app = container("app");
    private final Pod pod = pod("web", app);
    private final List<String> httpCalls = new ArrayList<>();
    private final List<Duration> slept = new ArrayList<>();
    private List<String> podIps = List.of("10.88.0.2");
    private IOException httpFailure;
    private String containerId;

    private HandlerRunner runner() {
        return new HandlerRunner(runtime, (action, c, host, timeout) -> {
            httpCalls.add(host + ":" + action.getPort().getIntVal() + action.getPath());
            if (httpFailure != null) {
                throw httpFailure;
            }
        }, p -> podIps, slept::add);
    }

    @BeforeEach
    void runningContainer() {
        runtime.addImage("busybox:1.36");
        var sandboxConfig = new io.jkubelet.core.runtime.PodSandboxConfig(
                new io.jkubelet.core.runtime.PodSandboxMetadata("web", "uid-web", "default", 0), "web", "/tmp/logs",
                null, List.of(), java.util.Map.of(), java.util.Map.of(), "",
                io.jkubelet.core.runtime.NamespaceOptions.POD_DEFAULT, 0, "busybox:1.36", false, java.util.Map.of());
        String sandbox = runtime.runPodSandbox(sandboxConfig);
        containerId = runtime.createContainer(sandbox, new ContainerConfig(
                new io.jkubelet.core.runtime.ContainerMetadata("app", 0), "busybox:1.36", List.of("sleep", "3600"),
                List.of(), "", List.of(), List.of(), java.util.Map.of(), java.util.Map.of(), "app/0.log", false, false,
                false, new io.jkubelet.core.runtime.LinuxContainerResources(0, 0, 0, 0, 0),
                new io.jkubelet.core.runtime.LinuxContainerSecurityContext(null, null, List.of(), false, false, List.of(),
                        List.of(), io.jkubelet.core.runtime.NamespaceOptions.POD_DEFAULT, false)), sandboxConfig);
        runtime.startContainer(containerId);
    }

    private static LifecycleHandler exec(String... cmd) {
        return new LifecycleHandlerBuilder().withNewExec().withCommand(cmd).endExec().build();
    }

    @Test
    void execSucceedsOnExitCodeZero() throws Exception {
        runtime.scriptCommand(List.of("sh", "-c", "ok"), FakeRuntime.Script.exitsWith(0));
        runner().run(containerId, pod, app, exec("sh", "-c", "ok"), HandlerRunner.NO_TIMEOUT);
        assertThat(runtime.calls()).contains("execSync");
    }

    @Test
    void execWithNonZeroExitFailsWithUpstreamMessage() {
        runtime.scriptCommand(List.of("sh", "-c", "bad"), FakeRuntime.Script.prints("out\n", "sh: bad: not found\n", 127));
        assertThatThrownBy(() -> runner().run(containerId, pod, app, exec("sh", "-c", "bad"), HandlerRunner.NO_TIMEOUT))
                .isInstanceOf(HookException.class)
                .hasMessage("Exec lifecycle hook ([sh -c bad]) for Container \"app\" in Pod \"web_default(uid-web)\" "
                        + "failed - error: command 'sh -c bad' exited with 127: sh: bad: not found\n"
                        + ", message: \"out\\nsh: bad: not found\\n\"");
    }

    @Test
    void execPastItsTimeoutFails() {
        runtime.scriptCommand(List.of("sleep", "60"), FakeRuntime.Script.exitsWith(0).lasting(Duration.ofSeconds(60)));
        assertThatThrownBy(() -> runner().run(containerId, pod, app, exec("sleep", "60"), Duration.ofSeconds(5)))
                .isInstanceOf(HookException.class)
                .hasMessageContaining("failed - error: command \"sleep 60\" timed out");
    }

    @Test
    void httpGetGoesToThePodIpWhenNoHostIsGiven() throws Exception {
        LifecycleHandler h = new LifecycleHandlerBuilder().withNewHttpGet().withPath("/hook").withNewPort(8080)
                .endHttpGet().build();
        runner().run(containerId, pod, app, h, HandlerRunner.NO_TIMEOUT);
        assertThat(httpCalls).containsExactly("10.88.0.2:8080/hook");
    }

    @Test
    void httpGetFailureCarriesUpstreamMessage() {
        httpFailure = new IOException("dial tcp 10.88.0.2:8080: connect: connection refused");
        LifecycleHandler h = new LifecycleHandlerBuilder().withNewHttpGet().withPath("/hook").withNewPort(8080)
                .endHttpGet().build();
        assertThatThrownBy(() -> runner().run(containerId, pod, app, h, HandlerRunner.NO_TIMEOUT))
                .isInstanceOf(HookException.class)
                .hasMessage("HTTP lifecycle hook (/hook) for Container \"app\" in Pod \"web_default(uid-web)\" failed - "
                        + "error: dial tcp 10.88.0.2:8080: connect: connection refused");
    }

    @Test
    void httpGetWithoutPodIpFails() {
        podIps = List.of();
        HTTPGetAction get = new HTTPGetAction();
        get.setPath("/hook");
        get.setPort(new io.fabric8.kubernetes.api.model.IntOrString(80));
        LifecycleHandler h = new LifecycleHandlerBuilder().withHttpGet(get).build();
        assertThatThrownBy(() -> runner().run(containerId, pod, app, h, HandlerRunner.NO_TIMEOUT))
                .hasMessageContaining("failed to find networking container");
        assertThat(httpCalls).isEmpty();
    }

    @Test
    void sleepLastsItsSecondsCutShortByTheTimeout() throws Exception {
        LifecycleHandler h = new LifecycleHandlerBuilder().withNewSleep().withSeconds(20L).endSleep().build();
        runner().run(containerId, pod, app, h, HandlerRunner.NO_TIMEOUT);
        runner().run(containerId, pod, app, h, Duration.ofSeconds(5));
        assertThat(slept).containsExactly(Duration.ofSeconds(20), Duration.ofSeconds(5));
    }

    @Test
    void interruptedSleepFailsAsUpstream() {
        LifecycleHandler h = new LifecycleHandlerBuilder().withNewSleep().withSeconds(20L).endSleep().build();
        HandlerRunner r = new HandlerRunner(runtime, HttpHookClient.UNAVAILABLE, p -> podIps, d -> {
            throw new InterruptedException();
        });
        assertThatThrownBy(() -> r.run(containerId, pod, app, h, HandlerRunner.NO_TIMEOUT))
                .hasMessage("Sleep lifecycle hook (20) for Container \"app\" in Pod \"web_default(uid-web)\" failed - "
                        + "error: container terminated before sleep hook finished");
        assertThat(Thread.interrupted()).isTrue();
    }

    @Test
    void handlerWithoutActionCannotRun() {
        assertThatThrownBy(() -> runner().run(containerId, pod, app, new LifecycleHandler(), HandlerRunner.NO_TIMEOUT))
                .hasMessageStartingWith("Cannot run handler: invalid handler: ");
    }

    @Test
    void goQuoteEscapesAsGo() {
        assertThat(GoFormat.quote("a\"b\\c\n\t\u0001é")).isEqualTo("\"a\\\"b\\\\c\\n\\t\\x01é\"");
    }
}
