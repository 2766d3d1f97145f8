package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.admission.testing.PodFields;
import io.jkubelet.core.admission.testing.PodFields.Entry;
import io.jkubelet.core.config.PodCodec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Each field that {@code pod-fields.yaml} says is refused, shown once on the built jar with a static pod file: every
 * such pod is {@code Failed} with the field's reason and "Pod was rejected: ..." naming the field, and the warning
 * event says the same, while the agent runs on. The few a static pod may not carry at all fail the manifest's
 * validation instead (as upstream's: ephemeral containers, ResourceClaims, ClusterTrustBundles, a regular container's
 * restartPolicy), named in the log; the SELinux options, ignored on this host without SELinux as upstream ignores
 * them, run.
 */
class RefusedPodFieldsIT extends AgentTestBase {
    /**
     * Fields that the static pod validation refuses before admission sees the pod, with what it says: as upstream's
     * validation of v1.30 (a regular container's restartPolicy comes with newer APIs, which only an apiserver pod can
     * bring to admission).
     */
    private static final Map<String, String> INVALID_IN_STATIC_PODS = Map.of(
            "PodSpec.ephemeralContainers", "spec.ephemeralContainers: Forbidden: cannot be set on create",
            "Container.restartPolicy", "spec.containers[0].restartPolicy: Forbidden: may not be set for non-init "
                    + "containers",
            "PodSpec.resourceClaims", "spec.resourceClaims: Forbidden: static pods may not use ResourceClaims",
            "VolumeProjection.clusterTrustBundle", "spec.volumes[0].projected.sources[0].clusterTrustBundle: "
                    + "Forbidden: static pods may not use ClusterTrustBundle projected volumes");

    @Test
    void everyRefusedFieldFailsItsStaticPodNamingTheField() throws Exception {
        startAgent();
        Map<String, Entry> written = new LinkedHashMap<>();
        List<Entry> refused = PodFields.table().stream().filter(e -> e.status().equals("refused")).toList();
        for (int i = 0; i < refused.size(); i++) {
            Entry entry = refused.get(i);
            String name = "refused-" + i;
            agent.writeManifest(name + ".yaml", manifest(name, entry));
            written.put(name, entry);
        }

        for (Map.Entry<String, Entry> w : written.entrySet()) {
            String name = w.getKey();
            Entry entry = w.getValue();
            if (INVALID_IN_STATIC_PODS.containsKey(entry.field())) {
                await(entry.field()).atMost(Duration.ofSeconds(30)).until(() -> agent.logText()
                        .contains(INVALID_IN_STATIC_PODS.get(entry.field())));
                assertThat(agent.pod(name)).as(entry.field()).isEmpty();
            } else if ("selinux".equals(entry.host())) {
                awaitPod(name, Duration.ofSeconds(90), AgentTestBase::running);
            } else {
                Pod pod = await(entry.field() + " refused").atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(250)).until(() -> agent.pod(name), p -> p.isPresent()
                                && p.get().getStatus() != null && "Failed".equals(p.get().getStatus().getPhase()))
                        .orElseThrow();
                assertThat(pod.getStatus().getReason()).as(entry.field()).isEqualTo(entry.reason());
                String names = entry.names() != null ? entry.names() : entry.path();
                assertThat(pod.getStatus().getMessage()).as(entry.field()).startsWith("Pod was rejected: ")
                        .contains(names);
                String event = "Warning " + entry.reason() + ": Pod default/" + name + "-" + agent.nodeName + " "
                        + pod.getStatus().getMessage().substring("Pod was rejected: ".length());
                await(entry.field() + " event").atMost(Duration.ofSeconds(10))
                        .until(() -> agent.logText().contains(event));
            }
        }
        assertThat(agent.healthz()).contains("ok");
        assertThat(Docker.running(agent.nodeName).size()).as("only the SELinux pods run (a sandbox and a container "
                + "each)").isEqualTo(2 * (int) refused.stream().filter(e -> "selinux".equals(e.host())).count());
    }

    /** The row's pod as a static pod file: named, on the local image, sleeping; its values as the row sets them. */
    private static String manifest(String name, Entry entry) {
        Pod pod = PodFields.pod(entry.set());
        pod.getMetadata().setName(name);
        pod.getMetadata().setUid(null);
        pod.setStatus(null);
        for (Container c : pod.getSpec().getContainers()) {
            c.setImage(IMAGE);
            c.setImagePullPolicy("Never");
            c.setCommand(List.of("sleep", "3600"));
        }
        pod.getSpec().setTerminationGracePeriodSeconds(1L);
        return PodCodec.toJson(pod);
    }
}
