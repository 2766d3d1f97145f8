package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The pods this machine admits (the standalone node's pod capacity, which admission counts against). */
class PodCapacityConfigTest {
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private static KubeletConfiguration config(int maxPods, int podsPerCore) {
        return KubeletConfigurationDefaults.apply(KubeletConfiguration.builder().maxPods(maxPods)
                .podsPerCore(podsPerCore).build()).build();
    }

    @Test
    void podsPerCoreLowersMaxPodsToThatManyPodsACore() {
        assertThat(ConfigSettings.podCapacity(config(110, 0))).isEqualTo(110);
        assertThat(ConfigSettings.podCapacity(config(110, 1))).isEqualTo(Math.min(110, CORES));
        assertThat(ConfigSettings.podCapacity(config(1, 1000))).isEqualTo(1);
    }
}
