package io.jkubelet.cmd.e2e;

import io.jkubelet.server.tls.TestPki;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard in a real browser (Debian's chromium, headless) against the built jar with real pods on Docker: the
 * pod list, a chart drawn for a busy container, a crash-looping pod's timeline in order, its log, and the secure
 * port refusing the page without credentials. Saves the screenshots {@code docs/dashboard.md} shows: into
 * {@code agent-cmd/target/dashboard-images}, or into the docs with {@code -Djk.screenshots=<checkout>/docs/images}
 * (a test run leaves the checkout as it was).
 */
class DashboardIT extends AgentTestBase {
    /** Where the screenshots go (the build's directory unless the docs are asked for). */
    private static final Path IMAGES = Path.of(System.getProperty("jkubelet.screenshots", "target/dashboard-images"));

    private void writePods() throws Exception {
        agent.writeManifest("busy.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: busy}
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: spin
                    image: %s
                    command: ["sh", "-c", "while :; do :; done"]
                    resources: {limits: {cpu: 300m, memory: 32Mi}}
                """.formatted(IMAGE));
        agent.writeManifest("crash.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: crash}
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: app
                    image: %s
                    command: ["sh", "-c", "echo starting attempt; sleep 1; echo giving up; exit 3"]
                """.formatted(IMAGE));
        agent.writeManifest("quiet.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: quiet, namespace: tools}
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: sleeper
                    image: %s
                    command: ["sh", "-c", "trap 'exit 0' TERM; while :; do sleep 1; done"]
                """.formatted(IMAGE));
    }

    @Test
    void theNodeViewThePodViewAndTheirChartsAndTimelineInABrowser() throws Exception {
        int dashboardPort = Agent.freePort();
        startAgent("--cadvisor-port", Integer.toString(dashboardPort));
        writePods();
        String node = agent.nodeName;
        awaitPod("busy", Duration.ofSeconds(60), AgentTestBase::running);
        awaitPod("quiet", Duration.ofSeconds(60), AgentTestBase::running);
        // Two exits of the crash-looping container: the second one is held back by CrashLoopBackOff.
        awaitPod("crash", Duration.ofSeconds(90), p -> container(p, "app").map(c -> c.getRestartCount() >= 2
                && c.getState().getWaiting() != null && "CrashLoopBackOff".equals(c.getState().getWaiting().getReason()))
                .orElse(false));
        // CPU rates need two stats rounds, 10 s apart.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> agent.get(agent.readOnlyPort,
                "/stats/history?pod=default/busy-" + node + "&container=spin").orElse("").matches("(?s).*\"cpuNanoCores\":\\[[^\\]]*\\d.*"));

        try (HeadlessChromium chromium = new HeadlessChromium()) {
            var browser = chromium.driver;
            // The secure port (anonymous and AlwaysAllow without a config file): the logs are served there.
            browser.get("https://127.0.0.1:" + agent.port + "/dashboard/");
            await().atMost(Duration.ofSeconds(20)).until(() -> browser.findElements(By.cssSelector("#pods-table tbody tr")).size() == 3);
            List<String> pods = browser.findElements(By.cssSelector("#pods-table tbody tr")).stream()
                    .map(r -> r.getAttribute("data-pod")).toList();
            assertThat(pods).containsExactlyInAnyOrder("default/busy-" + node, "default/crash-" + node, "tools/quiet-" + node);
            WebElement busyRow = browser.findElement(By.cssSelector("#pods-table tr[data-pod='default/busy-" + node + "']"));
            assertThat(busyRow.getText()).contains("Running", "Guaranteed");
            assertThat(browser.findElement(By.cssSelector("#conditions")).getText()).contains("Ready", "MemoryPressure");
            assertThat(browser.findElement(By.cssSelector("#node-info")).getText()).contains("docker://");

            // Filter and sort as a person would.
            browser.findElement(By.id("pod-filter")).sendKeys("tools");
            assertThat(browser.findElements(By.cssSelector("#pods-table tbody tr"))).hasSize(1);
            browser.executeScript("const f = document.getElementById('pod-filter'); f.value = '';"
                    + "f.dispatchEvent(new Event('input'));");
            browser.findElement(By.cssSelector("#pods-table th[data-key='restarts']")).click();
            browser.findElement(By.cssSelector("#pods-table th[data-key='restarts']")).click();
            await().atMost(Duration.ofSeconds(5)).until(() -> browser.findElements(By.cssSelector("#pods-table tbody tr")).size() == 3);
            assertThat(browser.findElement(By.cssSelector("#pods-table tbody tr")).getAttribute("data-pod"))
                    .isEqualTo("default/crash-" + node);
            await().atMost(Duration.ofSeconds(20)).until(() -> drawnPoints(browser, "node-cpu") > 0);
            chromium.screenshot(IMAGES.resolve("dashboard-node.png"));

            // The busy container's CPU chart has data points, drawn on the canvas in the series' colour.
            browser.get("https://127.0.0.1:" + agent.port + "/dashboard/#/pod/default/busy-" + node);
            await().atMost(Duration.ofSeconds(20)).until(() -> drawnPoints(browser, "container-spin-cpu") > 0);
            assertThat(strokePixels(browser, "container-spin-cpu")).isGreaterThan(10);

            // The crash-looping pod: restarts with their exit codes and the back-off, in order, and why it waits.
            browser.get("https://127.0.0.1:" + agent.port + "/dashboard/#/pod/default/crash-" + node);
            await().atMost(Duration.ofSeconds(20)).until(() -> browser.findElements(By.cssSelector("#timeline tbody tr")).size() > 5);
            List<String> story = new ArrayList<>();
            for (WebElement row : browser.findElements(By.cssSelector("#timeline tbody tr"))) {
                String reason = row.getAttribute("data-reason");
                if (List.of("Started", "Terminated", "BackOff").contains(reason)) {
                    String code = row.getAttribute("data-exit-code");
                    story.add(code == null ? reason : reason + " " + code);
                }
            }
            assertThat(String.join(", ", story)).startsWith("Started, Terminated 3, Started, Terminated 3, BackOff");
            assertThat(browser.findElement(By.id("waiting")).getText())
                    .matches("(?s)app: (waiting \\d+ s more for CrashLoopBackOff|back-off of \\S+ is over, restarting at the next sync); "
                            + "last exit code 3 at \\d\\d:\\d\\d:\\d\\d");
            await().atMost(Duration.ofSeconds(20)).until(() -> browser.findElement(By.id("log-app")).getText().contains("giving up"));
            chromium.screenshot(IMAGES.resolve("dashboard-pod.png"));
            browser.findElement(By.id("follow-app")).click();
            browser.executeScript("document.getElementById('pod-charts').scrollIntoView()");
            chromium.screenshot(IMAGES.resolve("dashboard-pod-charts-logs.png"));

            // The same page on --cadvisor-port (plain HTTP on 127.0.0.1).
            browser.get("http://127.0.0.1:" + dashboardPort + "/dashboard/");
            await().atMost(Duration.ofSeconds(20)).until(() -> browser.findElements(By.cssSelector("#pods-table tbody tr")).size() == 3);
        }
        assertThat(Files.size(IMAGES.resolve("dashboard-node.png"))).isGreaterThan(10_000);
    }

    @Test
    void theSecurePortRefusesThePageWithoutCredentials() throws Exception {
        TestPki clients = TestPki.create("dashboard-clients");
        Path caFile = clients.writeCa(Files.createDirectories(dir.resolve("client-pki")).resolve("ca.crt"));
        startAgent("--client-ca-file", caFile.toString(), "--anonymous-auth=false");

        try (HeadlessChromium chromium = new HeadlessChromium()) {
            chromium.driver.get("https://127.0.0.1:" + agent.port + "/dashboard/");
            assertThat(chromium.driver.findElement(By.tagName("body")).getText()).isEqualTo("Unauthorized");
            assertThat(chromium.driver.findElements(By.id("pods-table"))).isEmpty();
        }
    }

    /** The chart's non-null data points (uPlot's own data, as drawn). */
    private static long drawnPoints(org.openqa.selenium.chrome.ChromeDriver browser, String chart) {
        Object n = browser.executeScript("const u = window.jkDashboard && window.jkDashboard.charts[arguments[0]];"
                + "return u ? u.data[1].filter(v => v !== null).length : 0;", chart);
        return ((Number) n).longValue();
    }

    /** Pixels of the chart's canvas in its first series' colour: the line was drawn. */
    private static long strokePixels(org.openqa.selenium.chrome.ChromeDriver browser, String chart) {
        Object n = browser.executeScript("""
                const u = window.jkDashboard.charts[arguments[0]];
                const c = u.ctx.canvas, d = u.ctx.getImageData(0, 0, c.width, c.height).data;
                let n = 0;
                for (let i = 0; i < d.length; i += 4) {
                  if (Math.abs(d[i] - 47) < 30 && Math.abs(d[i + 1] - 109) < 30 && Math.abs(d[i + 2] - 181) < 30 && d[i + 3] > 100) n++;
                }
                return n;""", chart);
        return ((Number) n).longValue();
    }
}
