package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The Docker adapter's settings from the configuration. */
class DockerOptionsConfigTest {

    @Test
    void shortDockerCallsAreBoundedByTheRuntimeRequestTimeout() {
        assertThat(ConfigSettings.dockerOptions(KubeletConfigurationDefaults.newDefaulted()).requestTimeout())
                .isEqualTo(Duration.ofMinutes(2));
        KubeletConfiguration config = KubeletConfigurationDefaults.apply(KubeletConfiguration.builder()
                .runtimeRequestTimeout(Duration.ofSeconds(30)).containerLogMaxSize("1Mi").build()).build();

        assertThat(ConfigSettings.dockerOptions(config).requestTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(ConfigSettings.dockerOptions(config).logOptions()).containsEntry("max-size", "1048576");
    }
}
