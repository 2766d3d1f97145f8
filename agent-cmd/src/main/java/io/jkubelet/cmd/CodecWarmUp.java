package io.jkubelet.cmd;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.qos.QosClass;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Loads the pod codec before the first manifest comes (on a start-up thread of its own, see {@link KubeletApp}). */
final class CodecWarmUp {
    private static final Logger log = LoggerFactory.getLogger(CodecWarmUp.class);

    private CodecWarmUp() {
    }

    /**
     * Decodes, defaults, validates and hashes a small built-in pod once, so that the first real manifests
     * do not pay for loading and initialising the codec (about half a second in a fresh JVM).
     */
    static void run(String nodeName) {
        byte[] sample = """
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
                """.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        var decoded = io.jkubelet.core.config.StaticPodDecoder.tryDecodeSinglePod(sample,
                io.jkubelet.core.config.StaticPodDefaults.forFile(nodeName, "/warm-up.yaml"));
        log.debug("codec warmed up: {}", decoded);
        QosClass.of(io.jkubelet.core.config.PodCodec.deepCopy(new PodBuilder().withNewSpec().addNewContainer()
                .withName("c").endContainer().endSpec().build()));
        io.jkubelet.core.kuberuntime.ContainerHash.of(new ContainerBuilder().withName("c").withImage("x").build());
    }
}
