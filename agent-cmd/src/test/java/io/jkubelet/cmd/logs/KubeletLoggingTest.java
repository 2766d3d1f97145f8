package io.jkubelet.cmd.logs;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jkubelet.core.apis.config.LoggingConfiguration;
import io.jkubelet.core.apis.config.LoggingConfiguration.FormatOptions;
import io.jkubelet.core.apis.config.LoggingConfiguration.OutputRoutingOptions;
import io.jkubelet.core.apis.config.LoggingConfiguration.VModuleItem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/** The configuration's {@code logging} applied to a Logback context of the test's own, writing to memory. */
class KubeletLoggingTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LoggerContext context = started(new LoggerContext());

    private static LoggerContext started(LoggerContext context) {
        context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        context.start();
        return context;
    }
    private final ByteArrayOutputStream info = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errors = new ByteArrayOutputStream();
    private KubeletLogging logging;

    @AfterEach
    void stop() {
        if (logging != null) {
            logging.close();
        }
        context.stop();
    }

    private KubeletLogging apply(LoggingConfiguration.Builder config) {
        logging = KubeletLogging.apply(config.build(), context, info, errors);
        return logging;
    }

    private Logger logger() {
        return context.getLogger(KubeletLoggingTest.class);
    }

    private static List<String> lines(ByteArrayOutputStream out) {
        String text = out.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }

    private static List<JsonNode> json(ByteArrayOutputStream out) throws IOException {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : lines(out)) {
            nodes.add(JSON.readTree(line));
        }
        return nodes;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void jsonLinesHaveComponentBasesFieldsInItsOrder() throws IOException {
        apply(LoggingConfiguration.builder().format("json").verbosity(0));
        long before = System.currentTimeMillis();
        logger().atInfo().addKeyValue("pod", "kube-system/etcd").addKeyValue("restarts", 3).log("Pod started");
        logger().error("Failed to sync pod", new IOException("connection refused"));
        long after = System.currentTimeMillis();

        List<JsonNode> lines = json(errors);
        assertThat(lines).hasSize(2);
        JsonNode started = lines.get(0);
        assertThat(fieldNames(started)).containsExactly("ts", "caller", "msg", "v", "pod", "restarts");
        assertThat(started.get("ts").isFloatingPointNumber() || started.get("ts").isIntegralNumber()).isTrue();
        assertThat(started.get("ts").asDouble()).isBetween((double) before, (double) after + 1);
        assertThat(started.get("caller").asText()).matches("logs/KubeletLoggingTest\\.java:\\d+");
        assertThat(started.get("msg").asText()).isEqualTo("Pod started");
        assertThat(started.get("v").asInt()).isZero();
        assertThat(started.get("pod").asText()).isEqualTo("kube-system/etcd");
        assertThat(started.get("restarts").asInt()).isEqualTo(3);

        JsonNode failed = lines.get(1);
        assertThat(fieldNames(failed)).containsExactly("ts", "caller", "msg", "err");
        assertThat(failed.get("err").asText()).isEqualTo("java.io.IOException: connection refused");
        assertThat(info.size()).as("one stream, stderr, without split-stream").isZero();
    }

    @Test
    void textLinesAreKlogsWithKeyValuePairsAfterTheMessage() {
        apply(LoggingConfiguration.builder().verbosity(0));
        logger().atInfo().addKeyValue("pod", "kube-system/etcd").log("Pod started");
        logger().warn("plain");

        assertThat(lines(errors)).hasSize(2);
        assertThat(lines(errors).get(0)).matches("I\\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d{6} \\S+ KubeletLoggingTest\\] "
                + "Pod started pod=\"kube-system/etcd\"");
        assertThat(lines(errors).get(1)).startsWith("W").endsWith("KubeletLoggingTest] plain");
    }

    @Test
    void theTimestampIsMillisecondsAsAPlainNumberNeverInExponentForm() {
        assertThat(KlogJsonFields.Timestamp.millis(java.time.Instant.ofEpochSecond(1_733_356_800L, 123_456_789)))
                .isEqualTo("1733356800123.456789");
        assertThat(KlogJsonFields.Timestamp.millis(java.time.Instant.ofEpochSecond(1_733_356_800L)))
                .isEqualTo("1733356800000");
    }

    @Test
    void verbosityFollowsKlogLevelsAndChangesAtRunTime() throws IOException {
        KubeletLogging logging = apply(LoggingConfiguration.builder().format("json").verbosity(0));
        logger().debug("sync detail 1");
        logging.setVerbosity(4);
        logger().debug("sync detail 2");
        logger().trace("relist detail 1");
        logging.setVerbosity(5);
        logger().trace("relist detail 2");

        assertThat(json(errors)).extracting(n -> n.get("msg").asText() + " v" + n.get("v").asInt())
                .containsExactly("sync detail 2 v4", "relist detail 2 v5");
    }

    @Test
    void otherLibrariesKeepTheirLevels() {
        apply(LoggingConfiguration.builder().verbosity(10));
        context.getLogger("io.netty.channel.DefaultChannelPipeline").info("netty detail");
        context.getLogger("io.netty.channel.DefaultChannelPipeline").warn("netty warning");

        assertThat(lines(errors)).hasSize(1).first().asString().endsWith("DefaultChannelPipeline] netty warning");
    }

    @Test
    void vmoduleRaisesTheLevelOfMatchingClassesOrPackagesOnly() {
        apply(LoggingConfiguration.builder().verbosity(0).vmodule(List.of(
                new VModuleItem("KubeletLogging*", 5), new VModuleItem("io.jkubelet.core.pleg.*", 4))));
        logger().trace("this class at 5");
        context.getLogger("io.jkubelet.core.pleg.GenericPleg").debug("pleg at 4");
        context.getLogger("io.jkubelet.core.pleg.GenericPleg").trace("pleg not at 5");
        context.getLogger("io.jkubelet.core.status.StatusManager").debug("status at 0");

        assertThat(lines(errors)).hasSize(2);
        assertThat(lines(errors).get(0)).startsWith("T").endsWith("KubeletLoggingTest] this class at 5");
        assertThat(lines(errors).get(1)).startsWith("D").endsWith("GenericPleg] pleg at 4");
    }

    @Test
    void splitStreamSendsErrorsToStderrAndTheRestToStdout() throws IOException {
        apply(LoggingConfiguration.builder().format("json").verbosity(0)
                .options(new FormatOptions(new OutputRoutingOptions(), new OutputRoutingOptions(true, "0"))));
        logger().info("to stdout");
        logger().warn("warnings too");
        logger().error("to stderr");

        assertThat(json(info)).extracting(n -> n.get("msg").asText()).containsExactly("to stdout", "warnings too");
        assertThat(json(errors)).extracting(n -> n.get("msg").asText()).containsExactly("to stderr");
    }

    @Test
    void aBufferedInfoStreamIsWrittenWhenFlushed() throws IOException {
        // An hour between the flush daemon's runs: the builder's default (0) makes it flush every millisecond, which
        // raced this test's look at the unflushed stream.
        KubeletLogging logging = apply(LoggingConfiguration.builder().verbosity(0)
                .flushFrequency(new io.jkubelet.core.apis.config.TimeOrMetaDuration(java.time.Duration.ofHours(1), true))
                .options(new FormatOptions(new OutputRoutingOptions(true, "1Mi"), new OutputRoutingOptions())));
        logger().info("buffered");
        logger().error("not buffered");

        assertThat(info.size()).isZero();
        assertThat(lines(errors)).hasSize(1);
        logging.flush();
        assertThat(lines(info)).hasSize(1).first().asString().endsWith("KubeletLoggingTest] buffered");
    }

    @Test
    void theBufferedInfoStreamIsWrittenEveryFlushFrequency() {
        apply(LoggingConfiguration.builder().verbosity(0).flushFrequency(new io.jkubelet.core.apis.config.TimeOrMetaDuration(
                java.time.Duration.ofMillis(100), true))
                .options(new FormatOptions(new OutputRoutingOptions(true, "1Mi"), new OutputRoutingOptions())));
        logger().info("buffered");

        // No flush() here: the flush daemon writes the buffer every flushFrequency.
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> info.size() > 0);
        assertThat(lines(info)).hasSize(1).first().asString().endsWith("KubeletLoggingTest] buffered");
    }
}
