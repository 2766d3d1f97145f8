package io.jkubelet.core.config;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Whatever bytes a manifest holds, decoding gives a pod, a list of errors or a parse failure, and nothing else: no
 * exception, no error of the JVM. Runs its corpus ({@code ManifestFuzzTestInputs/}) as a regression test; with
 * {@code JAZZER_FUZZ=1} it fuzzes ({@code bench/fuzz}).
 */
class ManifestFuzzTest {
    private static final StaticPodDefaults DEFAULTS = StaticPodDefaults.forFile("node-1", "/etc/kubernetes/manifests/fuzz.yaml");

    @FuzzTest(maxDuration = "20s")
    void decodingAnyBytesEndsInAResult(byte[] data) {
        if (data.length > PodCodec.MAX_MANIFEST_BYTES) {
            return;
        }
        StaticPodDecoder.tryDecodeSinglePod(data, DEFAULTS);
        StaticPodDecoder.tryDecodePodList(data, DEFAULTS);
    }
}
