package io.jkubelet.server.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LogFormatTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void criLinesKeepTheNewlineOfFullEntriesAndDropItFromPartialOnes() throws Exception {
        LogFormat.LogMessage full = LogFormat.CRI.parse(b("2016-10-06T00:17:09.669794202Z stdout F log content 1\n"));
        LogFormat.LogMessage partial = LogFormat.CRI.parse(b("2016-10-06T00:17:09.669794203Z stderr P:x part\n"));

        assertThat(new String(full.log(), StandardCharsets.UTF_8)).isEqualTo("log content 1\n");
        assertThat(full.stream()).isEqualTo("stdout");
        assertThat(LogFormat.TIME_OUT.format(full.timestamp())).isEqualTo("2016-10-06T00:17:09.669794202Z");
        assertThat(new String(partial.log(), StandardCharsets.UTF_8)).isEqualTo("part");
        assertThat(partial.stream()).isEqualTo("stderr");
    }

    @Test
    void criRejectsWhatIsNotCri() {
        assertThatThrownBy(() -> LogFormat.CRI.parse(b("nospace\n"))).hasMessage("timestamp is not found");
        assertThatThrownBy(() -> LogFormat.CRI.parse(b("2016-10-06T00:17:09Z stdin F x\n"))).hasMessage("unexpected stream type \"stdin\"");
        assertThatThrownBy(() -> LogFormat.CRI.parse(b("2016-10-06T00:17:09Z stdout\n"))).hasMessage("stream type is not found");
    }

    @Test
    void detectsTheFormatFromTheFirstLine() throws Exception {
        assertThat(LogFormat.detect(b("2016-10-06T00:17:09Z stdout F x\n"))).isEqualTo(LogFormat.CRI);
        assertThat(LogFormat.detect(b("{\"log\":\"x\\n\",\"stream\":\"stdout\",\"time\":\"2016-10-20T18:39:20.57606443Z\"}\n")))
                .isEqualTo(LogFormat.DOCKER_JSON);
        assertThatThrownBy(() -> LogFormat.detect(b("plain text\n"))).hasMessage("unsupported log format: \"plain text\\n\"");
    }
}
