package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code --config-dir} with the built jar: the drop-ins are merged over the {@code --config} file in lexical order,
 * the command line wins over both, and {@code /configz} shows the merged result.
 */
class ConfigDropInsIT extends AgentTestBase {

    private static final String HEAD = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n";

    @Test
    void configzShowsTheDropInsMergedOverTheFileAndTheFlagsOverBoth() throws Exception {
        // The file alone asks for webhook authorization, which a node without an apiserver refuses to start with:
        // the agent only starts if the drop-in's AlwaysAllow is applied.
        Path config = dir.resolve("kubelet.yaml");
        Files.writeString(config, HEAD + """
                authentication:
                  anonymous: {enabled: true}
                  webhook: {enabled: false}
                authorization: {mode: Webhook}
                maxPods: 10
                clusterDomain: file.local
                featureGates: {KubeletTracing: true}
                """);
        Path dropIns = Files.createDirectories(dir.resolve("kubelet.conf.d"));
        Files.writeString(dropIns.resolve("10-authz.conf"), HEAD + """
                authorization: {mode: AlwaysAllow}
                maxPods: 20
                clusterDNS: [10.0.0.10, 10.0.0.11]
                featureGates: {ImageMaximumGCAge: true}
                """);
        Files.writeString(dropIns.resolve("20-node.conf"), HEAD + """
                maxPods: 42
                port: 1
                clusterDNS: [10.0.0.53]
                """);
        Files.writeString(dropIns.resolve("30-not-a-drop-in.yaml"), HEAD + "maxPods: 99\n");

        startAgent("--config", config.toString(), "--config-dir", dropIns.toString());

        SecurePortCurl.Answer configz = new SecurePortCurl(agent).get("/configz");
        assertThat(configz.status()).isEqualTo(200);
        assertThat(configz.body())
                .contains("\"authorization\":{\"mode\":\"AlwaysAllow\"")
                .contains("\"maxPods\":42")
                .contains("\"clusterDomain\":\"file.local\"")
                .contains("\"clusterDNS\":[\"10.0.0.53\"]")
                .contains("\"featureGates\":{\"ImageMaximumGCAge\":true,\"KubeletTracing\":true}")
                // --port on the command line (the test agent's) wins over the drop-in's port: 1.
                .contains("\"port\":" + agent.port + ",");
    }
}
