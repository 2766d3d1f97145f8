package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import io.jkubelet.core.images.ImagePullLimits;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The image manager's pull limits from the kubelet's four settings. */
class ImagePullLimitsConfigTest {

    @Test
    void theDefaultsSerializePullsAtFiveAPullsASecondWithABurstOfTen() {
        assertThat(ConfigSettings.imagePulls(KubeletConfigurationDefaults.newDefaulted()))
                .isEqualTo(new ImagePullLimits(true, null, 5, 10));
    }

    @Test
    void parallelPullsAndNoThrottle() {
        KubeletConfiguration config = KubeletConfigurationDefaults.apply(KubeletConfiguration.builder()
                .serializeImagePulls(false).maxParallelImagePulls(3).registryPullQPS(0).build()).build();

        assertThat(ConfigSettings.imagePulls(config)).isEqualTo(new ImagePullLimits(false, 3, 0, 10));
    }
}
