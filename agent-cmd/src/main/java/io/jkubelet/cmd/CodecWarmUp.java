package io.jkubelet.cmd;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.config.DecodeResult;
import io.jkubelet.core.config.PodCodec;
import io.jkubelet.core.config.StaticPodDecoder;
import io.jkubelet.core.config.StaticPodDefaults;
import io.jkubelet.core.kuberuntime.ContainerHash;
import io.jkubelet.core.qos.QosClass;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Loads the pod codec before the first manifest comes, on a thread of its own that {@link Main} starts before it
 * reads the flags: in a fresh JVM the first decode (SnakeYAML, Jackson's deserialisers for the pod model, the
 * defaults and validation) takes a quarter to half a second, and the first static pod waited for it once the file
 * source read its manifest. Begun first, it runs beside the flags, the configuration and the runtime's set-up on
 * the machine's other core.
 */
final class CodecWarmUp {
    /** The node name the built-in pod is defaulted for; nothing outside the warm-up sees it. */
    private static final String NODE = "warm-up";
    private static final byte[] SAMPLE = """
            apiVersion: v1
            kind: Pod
            metadata: {name: warm-up, labels: {app: warm-up}}
            spec:
              containers:
              - name: c
                image: jkubelet/busybox:1.0
                command: ["sh", "-c", "true"]
                env: [{name: A, value: "1"}]
                resources: {limits: {cpu: 100m, memory: 16Mi}}
                ports: [{containerPort: 80}]
            """.getBytes(StandardCharsets.UTF_8);

    private CodecWarmUp() {
    }

    /**
     * Starts the warm-up on the daemon thread {@code startup-codec}, unless {@code args} only ask for the version or
     * the usage. It logs nothing (logging is not set up yet): the step holds its failure, which {@link KubeletApp}
     * reports.
     */
    static StartupStep<Void> begin(String[] args) {
        if (List.of(args).stream().anyMatch(a -> a.equals("--help") || a.equals("-h") || a.startsWith("--version"))) {
            return StartupStep.finished(null);
        }
        return StartupStep.begin("codec", () -> {
            run();
            return null;
        });
    }

    /**
     * Decodes, defaults, validates and hashes a small built-in pod once, so that the first real manifests
     * do not pay for loading and initialising the codec.
     */
    static void run() {
        DecodeResult<?> decoded = StaticPodDecoder.tryDecodeSinglePod(SAMPLE, StaticPodDefaults.forFile(NODE, "/warm-up.yaml"));
        if (!(decoded instanceof DecodeResult.Decoded<?>)) {
            throw new IllegalStateException("the built-in pod did not decode: " + decoded);
        }
        QosClass.of(PodCodec.deepCopy(new PodBuilder().withNewSpec().addNewContainer().withName("c").endContainer()
                .endSpec().build()));
        ContainerHash.of(new ContainerBuilder().withName("c").withImage("x").build());
    }
}
