package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import io.jkubelet.docker.DockerRuntimeOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How the kubelet's container log settings reach the Docker runtime, and what start-up says of the unused ones. */
class DockerLogRotationTest {

    private static KubeletConfiguration config(UnaryOperator<KubeletConfiguration.Builder> change) {
        return KubeletConfigurationDefaults.apply(change.apply(KubeletConfiguration.builder()).build()).build();
    }

    @Test
    void theDefaultsRotateAtTenMebibytesKeepingFiveFilesAndSayTheTwoOtherSettingsAreUnused() {
        KubeletConfiguration defaults = KubeletConfigurationDefaults.newDefaulted();

        assertThat(DockerLogRotation.options(defaults, DockerRuntimeOptions.DEFAULTS).logOptions())
                .containsExactlyInAnyOrderEntriesOf(java.util.Map.of("max-size", "10485760", "max-file", "5"));
        DockerLogRotation.Notice notice = DockerLogRotation.unusedSettings(defaults);
        assertThat(notice.warning()).as("the defaults are not the operator's doing").isFalse();
        assertThat(notice.text()).isEqualTo("containerLogMonitorInterval (10s) and containerLogMaxWorkers (1) are not used "
                + "with the Docker runtime: Docker's json-file driver rotates each container's log as it writes it "
                + "(containerLogMaxSize 10Mi, containerLogMaxFiles 5)");
    }

    @Test
    void settingEitherUnusedSettingMakesTheNoticeAWarning() {
        assertThat(DockerLogRotation.unusedSettings(config(c -> c.containerLogMonitorInterval(Duration.ofSeconds(3))))
                .warning()).isTrue();
        DockerLogRotation.Notice workers = DockerLogRotation.unusedSettings(config(c -> c.containerLogMaxWorkers(4)));
        assertThat(workers.warning()).isTrue();
        assertThat(workers.text()).startsWith("containerLogMonitorInterval (10s) and containerLogMaxWorkers (4) are not used");
    }

    @Test
    void aNegativeMaxSizeTurnsRotationOff() {
        KubeletConfiguration off = config(c -> c.containerLogMaxSize("-1"));

        assertThat(DockerLogRotation.options(off, DockerRuntimeOptions.DEFAULTS).logOptions()).isEmpty();
        assertThat(DockerLogRotation.unusedSettings(off).text()).endsWith("container logs are not rotated (containerLogMaxSize -1)");
    }

    @Test
    void quantitiesBecomeExactBytes() {
        assertThat(DockerLogRotation.options(config(c -> c.containerLogMaxSize("32Ki").containerLogMaxFiles(3)),
                DockerRuntimeOptions.DEFAULTS).logOptions()).containsEntry("max-size", "32768").containsEntry("max-file", "3");
        assertThat(DockerLogRotation.options(config(c -> c.containerLogMaxSize("1M")), DockerRuntimeOptions.DEFAULTS)
                .logOptions()).containsEntry("max-size", "1000000");
        assertThatThrownBy(() -> DockerLogRotation.options(config(c -> c.containerLogMaxSize("1.5")), DockerRuntimeOptions.DEFAULTS))
                .hasMessageContaining("containerLogMaxSize \"1.5\" is not a whole number of bytes");
    }
}
