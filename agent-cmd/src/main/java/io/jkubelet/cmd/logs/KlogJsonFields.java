package io.jkubelet.cmd.logs;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import java.math.BigDecimal;
import java.time.Instant;
import net.logstash.logback.composite.AbstractFieldJsonProvider;
import tools.jackson.core.JsonGenerator;

/**
 * The fields of component-base's JSON lines that logstash-logback-encoder has no provider for, in its zap encoder's
 * terms ({@code logs/json}: {@code ts} by {@code epochMillisTimeEncoder}, {@code caller} by
 * {@code ShortCallerEncoder}; zapr's {@code v} and {@code err}).
 */
final class KlogJsonFields {

    private KlogJsonFields() {
    }

    /** {@code ts}: milliseconds since the epoch as a float ({@code 1733356800123.4567}), never in exponent form. */
    static final class Timestamp extends AbstractFieldJsonProvider<ILoggingEvent> {
        Timestamp() {
            setFieldName("ts");
        }

        @Override
        public void writeTo(JsonGenerator generator, ILoggingEvent event) {
            generator.writeName(getFieldName());
            generator.writeNumber(millis(event.getInstant()));
        }

        static String millis(Instant t) {
            BigDecimal millis = BigDecimal.valueOf(t.getEpochSecond()).movePointRight(3)
                    .add(BigDecimal.valueOf(t.getNano()).movePointLeft(6));
            return millis.stripTrailingZeros().toPlainString();
        }
    }

    /**
     * {@code caller}: zap's short caller, the last directory and the file with the line ({@code pleg/generic.go:180});
     * here the last package name, the source file and the line ({@code pleg/GenericPleg.java:180}).
     */
    static final class Caller extends AbstractFieldJsonProvider<ILoggingEvent> {
        Caller() {
            setFieldName("caller");
        }

        @Override
        public void writeTo(JsonGenerator generator, ILoggingEvent event) {
            StackTraceElement[] callers = event.getCallerData();
            if (callers == null || callers.length == 0) {
                return;
            }
            generator.writeStringProperty(getFieldName(), shortCaller(callers[0]));
        }

        @Override
        public void prepareForDeferredProcessing(ILoggingEvent event) {
            // The caller is the logging thread's stack: it must be taken before another thread writes the event.
            event.getCallerData();
        }

        static String shortCaller(StackTraceElement frame) {
            String className = frame.getClassName();
            int lastDot = className.lastIndexOf('.');
            String pkg = lastDot < 0 ? "" : className.substring(0, lastDot);
            String dir = pkg.substring(pkg.lastIndexOf('.') + 1);
            String file = frame.getFileName() != null ? frame.getFileName() : className.substring(lastDot + 1) + ".java";
            return (dir.isEmpty() ? "" : dir + "/") + file + ":" + frame.getLineNumber();
        }
    }

    /** {@code v}: an info message's verbosity level (zapr's {@code LogInfoLevel("v")}); errors have none. */
    static final class Verbosity extends AbstractFieldJsonProvider<ILoggingEvent> {
        Verbosity() {
            setFieldName("v");
        }

        @Override
        public void writeTo(JsonGenerator generator, ILoggingEvent event) {
            if (!isError(event)) {
                generator.writeNumberProperty(getFieldName(), KlogLevels.v(event.getLevel()));
            }
        }
    }

    /** {@code err}: the exception logged with the message, as its {@code toString()} (Go's {@code err.Error()}). */
    static final class Err extends AbstractFieldJsonProvider<ILoggingEvent> {
        Err() {
            setFieldName("err");
        }

        @Override
        public void writeTo(JsonGenerator generator, ILoggingEvent event) {
            IThrowableProxy thrown = event.getThrowableProxy();
            if (thrown != null) {
                String message = thrown.getMessage();
                generator.writeStringProperty(getFieldName(),
                        message == null ? thrown.getClassName() : thrown.getClassName() + ": " + message);
            }
        }
    }

    /** klog's error messages: the ones its split stream sends to stderr. */
    static boolean isError(ILoggingEvent event) {
        return event.getLevel().isGreaterOrEqual(Level.ERROR);
    }
}
