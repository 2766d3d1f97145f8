package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.LoggingConfiguration;
import io.jkubelet.docker.DockerUnavailableException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A failed start says what failed, never "null", and keeps where it came from for -v=4 and higher. */
class StartupFailureTest {

    @TempDir
    Path dir;

    @Test
    void aRuntimeExceptionDuringStartUpKeepsItsCauseAndHasAMessage() {
        KubeletApp app = new KubeletApp(v -> { });
        IllegalStateException noMessage = new IllegalStateException();

        assertThatThrownBy(() -> app.startOrClose(() -> {
            throw noMessage;
        })).isInstanceOf(StartupException.class).hasMessage("java.lang.IllegalStateException").hasCause(noMessage);
        app.awaitTermination(); // returns: what had started is stopped

        IllegalArgumentException withMessage = new IllegalArgumentException("bad endpoint");
        assertThatThrownBy(() -> new KubeletApp(v -> { }).startOrClose(() -> {
            throw withMessage;
        })).isInstanceOf(StartupException.class).hasMessage("bad endpoint").hasCause(withMessage);

        StartupException refused = new StartupException("secure server (port 10250): no key");
        assertThatThrownBy(() -> new KubeletApp(v -> { }).startOrClose(() -> {
            throw refused;
        })).isSameAs(refused);
    }

    @Test
    void aRuntimeThatCannotBeReachedEndsTheStartWithTheAdaptersFailureAsTheCause() {
        String endpoint = "unix://" + dir.resolve("docker.sock");
        KubeletConfiguration config = KubeletConfiguration.builder().from(ConfigFlagDefaults.newKubeletConfiguration())
                .containerRuntimeEndpoint(endpoint).build();

        assertThatThrownBy(() -> RuntimeConnection.connect(config)).isInstanceOf(StartupException.class)
                .hasMessageStartingWith("cannot connect to the Docker daemon at " + endpoint)
                .hasCauseInstanceOf(DockerUnavailableException.class);
    }

    @Test
    void theTextFormatSaysErrorAndTheMessageAndFromVerbosityFourTheStackTrace() {
        StartupException e = StartupException.of(new IllegalStateException("cgroup root /jk does not exist"));

        assertThat(reported(e, 0)).isEqualTo("Error: cgroup root /jk does not exist\n");
        assertThat(reported(e, 3)).isEqualTo("Error: cgroup root /jk does not exist\n");
        assertThat(reported(e, 4)).startsWith("Error: cgroup root /jk does not exist\n"
                        + StartupException.class.getName() + ": cgroup root /jk does not exist\n")
                .contains("\tat io.jkubelet.cmd.StartupFailureTest.")
                .contains("Caused by: java.lang.IllegalStateException: cgroup root /jk does not exist");
        assertThat(reported(StartupException.of(new NullPointerException()), 0))
                .isEqualTo("Error: java.lang.NullPointerException\n");
    }

    private static String reported(StartupException e, long verbosity) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LoggingConfiguration text = LoggingConfiguration.builder().format(LoggingConfiguration.FORMAT_TEXT)
                .verbosity(verbosity).build();
        Main.reportStartupFailure(e, text, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
