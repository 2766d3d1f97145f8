package io.jkubelet.core.qos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class OomScoreAdjusterTest {

    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(OomScoreAdjuster.class);

    @BeforeEach
    void captureLogs() {
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void releaseLogs() {
        logger.detachAppender(logs);
    }

    @Test
    void onAnUnrestrictedMachineTheWantedValueIsSet(@TempDir Path dir) throws IOException {
        Path path = Files.writeString(dir.resolve("oom_score_adj"), "0\n");
        OomScoreAdjuster adjuster = new OomScoreAdjuster(OomScoreAdjFile.at(path));

        assertThat(adjuster.apply(-999)).isEqualTo(-999);

        assertThat(Files.readString(path)).isEqualTo("-999");
        assertThat(adjuster.restricted()).isFalse();
        assertThat(adjuster.lowestAllowed()).isEqualTo(-1000);
        assertThat(adjuster.clamp(-998)).isEqualTo(-998);
        assertThat(warnings()).isEmpty();
    }

    @Test
    void withoutCapSysResourceTheScoreStopsAtTheFloorAndOneWarningIsLogged() throws IOException {
        KernelLikeFile file = new KernelLikeFile(5, 0);
        OomScoreAdjuster adjuster = new OomScoreAdjuster(file);

        assertThat(adjuster.apply(-999)).isEqualTo(0);
        adjuster.apply(-999);
        adjuster.probe();

        assertThat(file.value).isEqualTo(0);
        assertThat(adjuster.restricted()).isTrue();
        assertThat(adjuster.lowestAllowed()).isEqualTo(0);
        assertThat(adjuster.clamp(OomScorePolicy.POD_INFRA_OOM_SCORE_ADJ)).isEqualTo(0);
        assertThat(adjuster.clamp(OomScorePolicy.GUARANTEED_OOM_SCORE_ADJ)).isEqualTo(0);
        assertThat(adjuster.clamp(900)).isEqualTo(900);
        assertThat(warnings()).singleElement().asString()
                .contains("does not allow oom_score_adj below 0");
    }

    @Test
    void theFloorIsFoundExactlyEvenWhenItIsNotTheCurrentValue() throws IOException {
        KernelLikeFile file = new KernelLikeFile(300, -517);
        OomScoreAdjuster adjuster = new OomScoreAdjuster(file);

        assertThat(adjuster.probe()).isEqualTo(-517);
        // Probing leaves the original value in place.
        assertThat(file.value).isEqualTo(300);
        assertThat(adjuster.apply(-999)).isEqualTo(-517);
    }

    @Test
    void aWantedValueAboveTheFloorIsSetAsItIs() throws IOException {
        KernelLikeFile file = new KernelLikeFile(0, 0);
        OomScoreAdjuster adjuster = new OomScoreAdjuster(file);

        assertThat(adjuster.apply(250)).isEqualTo(250);
        assertThat(file.value).isEqualTo(250);
    }

    @Test
    void otherWriteErrorsAreNotMistakenForARestriction() {
        OomScoreAdjFile broken = new OomScoreAdjFile() {
            @Override
            public int read() {
                return 0;
            }

            @Override
            public void write(int value) throws IOException {
                throw new IOException("No such device");
            }

            @Override
            public String describe() {
                return "broken";
            }
        };

        assertThatThrownBy(() -> new OomScoreAdjuster(broken).apply(-999))
                .isInstanceOf(IOException.class).hasMessage("No such device");
    }

    @Test
    void valuesOutsideTheKernelsRangeAreRefused(@TempDir Path dir) throws IOException {
        OomScoreAdjuster adjuster = new OomScoreAdjuster(
                OomScoreAdjFile.at(Files.writeString(dir.resolve("f"), "0")));

        assertThatThrownBy(() -> adjuster.apply(-1001)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("oom_score_adj -1001 must be between -1000 and 1000, inclusive");
    }

    @Test
    void aFileWithoutANumberIsNamed(@TempDir Path dir) throws IOException {
        Path path = Files.writeString(dir.resolve("f"), "x");

        assertThatThrownBy(() -> new OomScoreAdjuster(OomScoreAdjFile.at(path)).apply(0))
                .isInstanceOf(IOException.class).hasMessage(path + " does not hold a number: \"x\"");
    }

    /** The real kernel: a child process's /proc file, which this test's process may write like its own. */
    @Test
    void findsTheRealKernelFloorOfAChildProcess() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc");
        Process child = new ProcessBuilder("sleep", "60").start();
        try {
            Path path = Path.of("/proc", Long.toString(child.pid()), "oom_score_adj");
            OomScoreAdjFile file = OomScoreAdjFile.at(path);
            file.write(7); // raising is always allowed
            OomScoreAdjuster adjuster = new OomScoreAdjuster(file);

            int lowest = adjuster.probe();

            assertThat(file.read()).as("probing restores the original value").isEqualTo(7);
            file.write(lowest); // the floor itself is allowed
            if (lowest > OomScoreAdjuster.MIN) {
                assertThat(adjuster.restricted()).isTrue();
                assertThatThrownBy(() -> file.write(lowest - 1)).isInstanceOf(IOException.class)
                        .satisfies(e -> assertThat(OomScoreAdjuster.isForbidden((IOException) e)).isTrue());
            }
            assertThat(adjuster.apply(OomScorePolicy.KUBELET_OOM_SCORE_ADJ))
                    .isEqualTo(Math.max(OomScorePolicy.KUBELET_OOM_SCORE_ADJ, lowest));
            assertThat(file.read()).isEqualTo(Math.max(OomScorePolicy.KUBELET_OOM_SCORE_ADJ, lowest));
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private List<String> warnings() {
        List<String> out = new ArrayList<>();
        for (ILoggingEvent event : logs.list) {
            if (event.getLevel() == Level.WARN) {
                out.add(event.getFormattedMessage());
            }
        }
        return out;
    }

    /** Behaves as the kernel does for a process without CAP_SYS_RESOURCE: nothing below {@code floor}. */
    private static final class KernelLikeFile implements OomScoreAdjFile {
        int value;
        final int floor;

        KernelLikeFile(int value, int floor) {
            this.value = value;
            this.floor = floor;
        }

        @Override
        public int read() {
            return value;
        }

        @Override
        public void write(int newValue) throws IOException {
            if (newValue < floor) {
                throw new IOException("Permission denied");
            }
            value = newValue;
        }

        @Override
        public String describe() {
            return "kernel-like";
        }
    }
}
