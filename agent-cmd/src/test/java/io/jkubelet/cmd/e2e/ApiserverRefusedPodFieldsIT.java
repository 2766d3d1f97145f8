package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A pod from the real apiserver that uses fields jkubelet does not act on is refused at admission as a static pod is:
 * {@code kubectl get pod} shows it {@code Failed} with {@code PodFeatureUnsupported} and a message naming each field,
 * and {@code kubectl get events} the warning. (The v1.20 apiserver drops the fields it does not know, so the fields
 * shown are those it knows: a {@code glusterfs} volume and {@code setHostnameAsFQDN}.)
 */
class ApiserverRefusedPodFieldsIT extends RealClusterBase {
    @Test
    void aPodWithFieldsJkubeletDoesNotActOnFailsNamingThem() {
        String name = "refused-fields";
        createPod(name, """
                  nodeName: %s
                  setHostnameAsFQDN: true
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sleep", "3600"]
                    volumeMounts: [{name: share, mountPath: /share}]
                  volumes:
                  - name: share
                    glusterfs: {endpoints: glusterfs-cluster, path: share}
                """.formatted(agent.nodeName, IMAGE));

        awaitPhase(name, "Failed");
        Pod pod = pod(name);
        String message = "Pod requires node features that are not available: the pod's FQDN as its hostname "
                + "(spec.setHostnameAsFQDN), glusterfs volumes (spec.volumes[0].glusterfs)";
        assertThat(pod.getStatus().getReason()).isEqualTo("PodFeatureUnsupported");
        assertThat(pod.getStatus().getMessage()).isEqualTo("Pod was rejected: " + message);
        assertThat(kubectl.run("get", "pod", name, "--no-headers").ok().out()).contains("PodFeatureUnsupported");
        await("the warning event").atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(kubectl.run("get", "events", "--field-selector", "involvedObject.name=" + name,
                        "-o", "jsonpath={range .items[*]}{.type} {.reason} {.message}{\"\\n\"}{end}").ok().out())
                        .contains("Warning PodFeatureUnsupported " + message));
    }
}
