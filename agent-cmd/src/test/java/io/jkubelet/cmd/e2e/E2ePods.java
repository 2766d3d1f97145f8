package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Pod;

import java.nio.file.Path;
import java.util.List;

/** Static pod manifests the end-to-end tests run on either runtime, so that Docker's and containerd's run the same. */
final class E2ePods {
    /** What a container runs that stays up and ends at once on SIGTERM. */
    static final String SLEEPER = "trap 'exit 0' TERM; sleep 3600 & wait";

    private E2ePods() {}

    /** Pod "keep": two sleepers, "a" and "b". */
    static String keep() {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: keep}
                spec:
                  containers:
                  - {name: a, image: %1$s, command: ["sh", "-c", "%2$s"]}
                  - {name: b, image: %1$s, command: ["sh", "-c", "%2$s"]}
                """.formatted(AgentOnRuntimeBase.IMAGE, SLEEPER);
    }

    /** Pod "private": the sleeper "p" from {@code image}, pulled every time. */
    static String privateImage(String image) {
        return sleeperOf("private", "p", image, "Always");
    }

    /** Pod {@code pod}: the sleeper {@code container} from {@code image} with {@code imagePullPolicy}. */
    static String sleeperOf(String pod, String container, String image, String imagePullPolicy) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s}
                spec:
                  containers:
                  - {name: %s, image: %s, imagePullPolicy: %s, command: ["sh", "-c", "%s"]}
                """.formatted(pod, container, image, imagePullPolicy, SLEEPER);
    }

    /** Whether container {@code name} waits for a pull that failed. */
    static boolean pullFailed(Pod p, String name) {
        return AgentOnRuntimeBase.container(p, name).map(c -> c.getState().getWaiting() != null
                && List.of("ErrImagePull", "ImagePullBackOff").contains(c.getState().getWaiting().getReason())).orElse(false);
    }

    /** Pod "crash": container {@code name} runs {@code command}, which ends with an error. */
    static String crash(String name, String command) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: crash}
                spec:
                  containers:
                  - {name: %s, image: %s, command: ["sh", "-c", "%s"]}
                """.formatted(name, AgentOnRuntimeBase.IMAGE, command);
    }

    /** Pod "side": the sidecar "proxy", the init container "setup", the app "app", all sharing {@code out} as /out. */
    static String sidecar(Path out, String proxyCommand, String appCommand) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: side}
                spec:
                  terminationGracePeriodSeconds: 20
                  volumes: [{name: out, hostPath: {path: %2$s}}]
                  initContainers:
                  - name: proxy
                    image: %1$s
                    restartPolicy: Always
                    command: ["sh", "-c", "%3$s"]
                    volumeMounts: [{name: out, mountPath: /out}]
                  - name: setup
                    image: %1$s
                    command: ["sh", "-c", "echo setup-done >> /out/order"]
                    volumeMounts: [{name: out, mountPath: /out}]
                  containers:
                  - name: app
                    image: %1$s
                    command: ["sh", "-c", "%4$s"]
                    volumeMounts: [{name: out, mountPath: /out}]
                """.formatted(AgentOnRuntimeBase.IMAGE, out, proxyCommand, appCommand);
    }
}
