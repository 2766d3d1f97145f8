package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.NodeCondition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node under disk pressure for real, made safely: its hard {@code imagefs.available} threshold is 99% of Docker's
 * data root, which is always less free than that, and no disk is used to get there. The node reports DiskPressure,
 * frees what it can itself before it would evict pods (dead containers, then unused images: the test's own unused
 * image goes, the one a running pod's container was made from is not even tried), and refuses every pod but critical
 * ones.
 *
 * <p>The engine is shared and, under disk pressure, the node tries to delete every unused image it has seen for the
 * minimum image age (upstream's 2 minutes, 30 seconds here through {@code --minimum-image-ttl-duration} so that the
 * test need not wait): before the agent starts, every image on the engine but the test's unused one gets a
 * guard, a container the test creates (never started) from it. The agent does not count such containers as users (as
 * upstream, it lists only the kubelets' own), but Docker refuses to remove an image a container needs: the agent logs
 * the refusal and the image stays. The guards go after the test.
 */
class DiskPressureIT extends RealClusterBase {
    private static final String PREFIX = "jk-evict-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String GUARD_LABEL = "io.jkubelet.test.eviction-guard=" + PREFIX;
    private static String unusedImage;
    private static String usedImage;
    private static final List<String> guardedImages = new ArrayList<>();

    /** The test's images and the guards, made before the agent starts. */
    static String[] agentArgs() {
        unusedImage = commitImage("unused");
        usedImage = commitImage("used");
        for (String image : Docker.run("images", "-q", "--no-trunc").out().lines().distinct().toList()) {
            if (!image.equals(unusedImage)) {
                guardedImages.add(image);
                Docker.run("create", "--label", GUARD_LABEL, image, "true");
            }
        }
        assertThat(guardedImages).contains(usedImage);
        return new String[] {"--eviction-hard", "imagefs.available<99%", "--minimum-image-ttl-duration", "30s"};
    }

    /** Critical, so that it is admitted under disk pressure and never evicted; its container made well within the images' 30 seconds. */
    @BeforeAll
    static void runAPodOfTheUsedImage() {
        createCriticalPod("disk-image-user", PREFIX + "/used:1");
    }

    /** An image of the test's own: a busybox container committed, with a label that makes its id unique. */
    private static String commitImage(String name) {
        String source = Docker.run("create", "--label", GUARD_LABEL, IMAGE, "true").out();
        try {
            Docker.run("commit", "--change", "LABEL " + PREFIX + "=" + name, source, PREFIX + "/" + name + ":1");
            return Docker.run("image", "inspect", "--format", "{{.Id}}", PREFIX + "/" + name + ":1").out();
        } finally {
            Docker.run("rm", "-f", source);
        }
    }

    /** The agent and its containers go first: the test's images are in use until then. */
    @AfterAll
    static void removeGuardsAndImages() throws Exception {
        client.pods().inNamespace("kube-system").withName("disk-image-user").withGracePeriod(0).delete();
        agent.stop();
        Docker.removeAll(agent.nodeName);
        String guards = Docker.run("ps", "-aq", "--filter", "label=" + GUARD_LABEL).out();
        for (String id : guards.lines().toList()) {
            Docker.run("rm", "-f", id);
        }
        Docker.run("rmi", PREFIX + "/used:1");
        Docker.run("rmi", PREFIX + "/unused:1");
    }

    private static boolean imageExists(String id) {
        return Docker.run("image", "inspect", "--format", "{{.Id}}", id).exitCode() == 0;
    }

    @Test
    void theNodeReportsDiskPressureAndFreesUnusedImagesBeforeItWouldEvictPods() {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            NodeCondition c = nodeCondition("DiskPressure");
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("KubeletHasDiskPressure");
            assertThat(c.getMessage()).isEqualTo("kubelet has disk pressure");
        });
        assertThat(nodeCondition("MemoryPressure").getStatus()).isEqualTo("False");

        // Once it has been seen for the minimum image age, the unused image goes; what a pod's container was made from
        // is in use and not even tried, and the guarded images are still there.
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2)).until(() -> !imageExists(unusedImage));
        assertThat(guardedImages).allMatch(DiskPressureIT::imageExists);
        assertThat(imageExists(usedImage)).isTrue();
        String log = agent.logText();
        assertThat(log).doesNotContain("Removing image " + usedImage);

        // In the cycle that removed it: first the attempt to reclaim, then the image, then (still short) pods' turn.
        int removed = log.indexOf("Removing image " + unusedImage);
        assertThat(removed).isPositive();
        assertThat(log.lastIndexOf("Eviction manager: attempting to reclaim ephemeral-storage", removed)).isPositive();
        int evictPods = log.indexOf("Eviction manager: must evict pod(s) to reclaim ephemeral-storage", removed);
        assertThat(evictPods).isGreaterThan(removed);
        int nextCycle = log.indexOf("Eviction manager: attempting to reclaim", removed);
        assertThat(nextCycle == -1 || nextCycle > evictPods).as("the same cycle").isTrue();
        assertThat(events("default", agent.nodeName)).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("EvictionThresholdMet");
            assertThat(e.getMessage()).isEqualTo("Attempting to reclaim ephemeral-storage");
        });
    }

    @Test
    void underDiskPressureOnlyCriticalPodsAreAdmittedAndTheyAreNeverEvicted() {
        await().atMost(Duration.ofSeconds(60)).until(() -> "True".equals(nodeCondition("DiskPressure").getStatus()));
        createSleeper("disk-burstable", "{requests: {memory: 16Mi}}");

        awaitPhase("disk-burstable", "Failed");
        assertThat(pod("disk-burstable").getStatus().getReason()).isEqualTo("Evicted");
        assertThat(pod("disk-burstable").getStatus().getMessage())
                .isEqualTo("Pod was rejected: The node had condition: [DiskPressure]. ");
        awaitCriticalPodNeverEvicted("disk-image-user");
    }
}
