package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static io.jkubelet.core.config.Manifests.NODE;
import static io.jkubelet.core.config.Manifests.bytes;
import static org.assertj.core.api.Assertions.assertThat;

class DecodedManifestsTest {
    private static final Path FILE = Path.of("/etc/kubernetes/manifests/web.yaml");

    private static Pod decode(byte[] data) {
        DecodeResult<Pod> result = StaticPodDecoder.tryDecodeSinglePod(data, StaticPodDefaults.forFile(NODE, FILE.toString()));
        return ((DecodeResult.Decoded<Pod>) result).value();
    }

    @Test
    void anUnchangedManifestGivesAPodEqualToWhatDecodingItAgainGivesAndEachTimeItsOwnCopy() {
        DecodedManifests decoded = new DecodedManifests();
        byte[] data = bytes(Manifests.WEB_YAML);
        Pod first = decode(data);
        decoded.remember(FILE, data, first);
        // What the pod config does to a pod it is given must not reach the next read's pod.
        first.getMetadata().getAnnotations().put("kubernetes.io/config.seen", "2026-12-06T00:00:00Z");
        first.getSpec().getContainers().getFirst().getPorts().getFirst().setContainerPort(81);

        Pod again = decoded.unchanged(FILE, bytes(Manifests.WEB_YAML)).orElseThrow();
        assertThat(again).isEqualTo(decode(data)).isNotSameAs(first);
        again.getMetadata().getAnnotations().put("kubernetes.io/config.seen", "later");
        assertThat(decoded.unchanged(FILE, data).orElseThrow()).isEqualTo(decode(data));
    }

    @Test
    void aChangedForgottenOrGoneManifestIsDecodedAgain() {
        DecodedManifests decoded = new DecodedManifests();
        byte[] data = bytes(Manifests.WEB_YAML);
        decoded.remember(FILE, data, decode(data));
        assertThat(decoded.unchanged(FILE, bytes(Manifests.WEB_YAML.replace("web", "web2")))).isEmpty();
        assertThat(decoded.unchanged(Path.of("/elsewhere.yaml"), data)).isEmpty();

        decoded.retainOnly(List.of(Path.of("/other.yaml")));
        assertThat(decoded.unchanged(FILE, data)).isEmpty();
        decoded.remember(FILE, data, decode(data));
        decoded.forget(FILE);
        assertThat(decoded.unchanged(FILE, data)).isEmpty();
    }
}
