package io.jkubelet.cmd.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.testing.RuntimePods;
import io.jkubelet.cri.CriRuntime;
import org.junit.jupiter.api.Test;

import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Image GC on containerd through the built jar, with thresholds that force a collection: a node whose image file
 * system is at or over 1 % removes, in its first pass at start, an unused image the test pulled under its own name
 * (gone from the CRI's list and from {@code ctr images ls}), keeps the image of a running pod's container and the
 * sandbox image its sandbox runs (containerd's {@code sandbox_image}, though the agent is told of another), and, as the low threshold of 0 % cannot be reached, says so with a
 * {@code FreeDiskSpaceFailed} event and a failed pass in its log. {@code /stats/summary} shows containerd's image file
 * system: what its snapshots use from containerd, size, free space and inodes of the file system under it.
 *
 * <p>The runtime is shared: every other image on containerd (busybox, the conformance images) gets a guard before the
 * agent starts, a container the test creates (never started) in a sandbox of its own node, so that image GC counts it
 * in use as upstream does every container of the runtime. The sandbox image is not guarded (the test shows it kept);
 * should it go all the same, the test imports it again from an export it makes first.
 */
class ContainerdImageGcIT extends ContainerdTestBase {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PAUSE = "docker.io/jkubelet/pause:3.9";
    private static final String UNUSED = ImagePullIT.REGISTRY + "/jkubelet/gc-unused:1";
    private static final String USED = ImagePullIT.REGISTRY + "/jkubelet/gc-used:1";

    @Test
    void unusedImagesGoWhileImagesOfRunningPodsAndTheSandboxImageStay() throws Exception {
        ImagePullIT.registriesRun();
        String unusedId = RegistryImages.pushBusyboxVariant(ImagePullIT.REGISTRY, "jkubelet/gc-unused", "1", "gc-unused");
        String usedId = RegistryImages.pushBusyboxVariant(ImagePullIT.REGISTRY, "jkubelet/gc-used", "1", "gc-used");
        String guardNode = "e2e-ctrd-gcguard-" + UUID.randomUUID().toString().substring(0, 8);
        Path pauseExport = dir.resolve("pause.tar");
        String pauseId;
        List<String> guarded = new ArrayList<>();
        try (CriRuntime runtime = cri()) {
            assertThat(runtime.pullImage(UNUSED, null)).isEqualTo(unusedId);
            assertThat(runtime.pullImage(USED, null)).isEqualTo(usedId);
            pauseId = runtime.imageStatus(PAUSE).orElseThrow().id();
            ctr("images", "export", pauseExport.toString(), PAUSE);
            RuntimePods.Sandbox guards = new RuntimePods(runtime, guardNode, PAUSE).sandbox("image-gc-guard",
                    dir.resolve("guard-logs"));
            for (Image image : runtime.listImages()) {
                if (!List.of(unusedId, usedId, pauseId).contains(image.id())) {
                    guards.create("guard-" + guarded.size(), image.id());
                    guarded.add(image.id());
                }
            }
        }
        try {
            // A first agent with image GC off runs a pod of the used image; it is stopped, its pod keeps running.
            startAgent();
            agent.writeManifest("user.yaml", E2ePods.sleeperOf("gc-user", "u", USED, "Never"));
            awaitPod("gc-user", Duration.ofSeconds(60), ContainerdTestBase::running);
            agent.stop();

            // The same node again with thresholds that force a collection and no minimum age: image GC's first pass
            // runs at start. It is told of another sandbox image, as a kubelet left at upstream's default is:
            // containerd's own (its sandbox_image, in its verbose Status) is kept all the same.
            List<String> args = new ArrayList<>(runtimeArgs());
            args.addAll(List.of("--image-gc-high-threshold", "1", "--image-gc-low-threshold", "0",
                    "--minimum-image-ttl-duration", "0s", "--pod-infra-container-image", "registry.k8s.io/pause:3.9"));
            agent = new Agent(dir, agent.nodeName, args).start();

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> !imageIds().contains(unusedId));
            assertThat(ctr("images", "ls", "-q", "name==" + UNUSED)).isBlank();
            assertThat(imageIds()).contains(usedId, pauseId).containsAll(guarded);
            String log = agent.logText();
            assertThat(log).contains("Removing image " + unusedId);
            assertThat(log).doesNotContain("Removing image " + usedId).doesNotContain("Removing image " + pauseId);
            assertThat(log).contains("FreeDiskSpaceFailed")
                    .contains("Failed to garbage collect required amount of images. Attempted to free ")
                    .contains("Image garbage collection failed (an event follows if the next pass fails too)");
            assertThat(awaitPod("gc-user", Duration.ofSeconds(30), ContainerdTestBase::running)).isNotNull();

            theSummaryShowsContainerdsImageFileSystem();
        } finally {
            if (agent != null) {
                agent.stop();
                removeFromRuntime(agent.nodeName);
            }
            try (CriRuntime runtime = cri()) {
                RuntimePods.removeAll(runtime, guardNode);
                // By id: every name containerd gave the test's images (the tag, the repo digest, the id) goes.
                runtime.removeImage(unusedId);
                runtime.removeImage(usedId);
            }
            if (ctr("images", "ls", "-q", "name==" + PAUSE).isBlank()) {
                ctr("images", "import", pauseExport.toString());
            }
        }
    }

    private void theSummaryShowsContainerdsImageFileSystem() throws Exception {
        // containerd sums what its snapshots use every 10 s: the agent's round and the test's call agree within one.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            JsonNode imageFs = JSON.readTree(agent.get(agent.readOnlyPort, "/stats/summary").orElseThrow())
                    .at("/node/runtime/imageFs");
            FilesystemUsage containerd;
            try (CriRuntime runtime = cri()) {
                containerd = runtime.imageFsInfo();
            }
            FileStore store = Files.getFileStore(Path.of(containerd.mountpoint()));
            assertThat(imageFs.get("capacityBytes").asLong()).isEqualTo(store.getTotalSpace());
            assertThat(imageFs.get("availableBytes").asLong()).isBetween(0L, store.getTotalSpace());
            assertThat(imageFs.get("usedBytes").asLong()).isEqualTo(containerd.usedBytes()).isPositive()
                    .isLessThan(store.getTotalSpace() - store.getUnallocatedSpace());
            assertThat(imageFs.get("inodes").asLong()).isEqualTo(containerd.inodes()).isPositive();
            assertThat(imageFs.get("inodesFree").asLong()).isBetween(0L, containerd.inodes());
            assertThat(imageFs.get("inodesUsed").asLong()).isEqualTo(containerd.inodesUsed()).isPositive();
        });
    }

    private static List<String> imageIds() {
        try (CriRuntime runtime = cri()) {
            return runtime.listImages().stream().map(Image::id).toList();
        }
    }
}
