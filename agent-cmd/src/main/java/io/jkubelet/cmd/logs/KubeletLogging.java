package io.jkubelet.cmd.logs;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import io.jkubelet.core.apis.config.LoggingConfiguration;
import io.jkubelet.core.apis.config.LoggingConfiguration.OutputRoutingOptions;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configuration's {@code logging} applied to the process's Logback (component-base's {@code logsapi.apply}):
 * the format (klog's text lines, or {@link KlogJsonEncoder}'s JSON lines), the verbosity and {@code vmodule}
 * ({@link VerbosityFilter}), and the output routing. Both formats write one stream to stderr; with
 * {@code options.<format>.splitStream}, errors go to stderr and the rest to stdout, held in a buffer of
 * {@code infoBufferSize} bytes when that is set. That buffer is the only one: it is flushed every
 * {@code flushFrequency} and when the agent ends, as klog's flush daemon does; unbuffered output needs no flushing
 * (upstream: "Ignored if the selected logging backend writes log messages without buffering").
 */
public final class KubeletLogging implements AutoCloseable {

    /**
     * The text format: klog's header (severity, date, time, thread in place of the PID, caller), the message and, as
     * klog's structured calls print them, the message's key/value pairs ({@code key="value"}).
     */
    static final String TEXT_PATTERN = "%.-1level%d{MMdd HH:mm:ss.SSSSSS} %thread %logger{0}] %msg%replace( %kvp){'^ $', ''}%n";
    /** zap's {@code BufferedWriteSyncer} size is an int; component-base caps the quantity at 2 GiB. */
    private static final long MAX_BUFFER = Integer.MAX_VALUE - 8;
    /** Libraries whose INFO and DEBUG say nothing an operator of the node needs. */
    private static final String[] QUIET_LIBRARIES = {"io.netty"};

    private final VerbosityFilter verbosity;
    private final Optional<OutputStream> infoBuffer;
    private final Optional<ScheduledExecutorService> flushDaemon;

    private KubeletLogging(VerbosityFilter verbosity, Optional<OutputStream> infoBuffer, Duration flushFrequency) {
        this.verbosity = verbosity;
        this.infoBuffer = infoBuffer;
        this.flushDaemon = infoBuffer.map(buffer -> {
            ScheduledExecutorService daemon = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().daemon().name("log-flush").factory());
            long period = Math.max(1, flushFrequency.toMillis());
            daemon.scheduleAtFixedRate(this::flush, period, period, TimeUnit.MILLISECONDS);
            return daemon;
        });
    }

    /** Applies {@code config} (validated) to the process's Logback, writing to stdout and stderr. */
    public static KubeletLogging apply(LoggingConfiguration config) {
        return apply(config, (LoggerContext) LoggerFactory.getILoggerFactory(), System.out, System.err);
    }

    /** Applies {@code config} to {@code context}, writing info messages to {@code info} and errors to {@code error}. */
    public static KubeletLogging apply(LoggingConfiguration config, LoggerContext context, OutputStream info,
            OutputStream error) {
        context.reset();
        context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.INFO);
        for (String library : QUIET_LIBRARIES) {
            context.getLogger(library).setLevel(Level.WARN);
        }
        // gRPC asks every channel for SO_KEEPALIVE, which the CRI endpoint's unix socket does not have: a warning per
        // connection that says nothing. (gRPC runs on the servers' Netty: the logger is theirs too, and their options
        // all apply.)
        context.getLogger("io.netty.bootstrap.Bootstrap").setLevel(Level.ERROR);
        VerbosityFilter filter = new VerbosityFilter(config.verbosity(), VModule.of(config.vmodule()));
        filter.setContext(context);
        filter.start();
        context.addTurboFilter(filter);

        boolean json = LoggingConfiguration.FORMAT_JSON.equals(config.format());
        OutputRoutingOptions routing = json ? config.options().json() : config.options().text();
        Optional<OutputStream> buffer = Optional.empty();
        if (!routing.splitStream()) {
            attach(context, "stderr", encoder(context, json), kept(error), true, null);
        } else {
            attach(context, "stderr", encoder(context, json), kept(error), true, true);
            long size = Math.min(routing.infoBufferSizeBytes(), MAX_BUFFER);
            OutputStream out = kept(info);
            if (size > 0) {
                out = new BufferedOutputStream(out, (int) size);
                buffer = Optional.of(out);
            }
            attach(context, "stdout", encoder(context, json), out, size == 0, false);
        }
        return new KubeletLogging(filter, buffer, config.flushFrequency().duration());
    }

    private static Encoder<ILoggingEvent> encoder(LoggerContext context, boolean json) {
        if (json) {
            return KlogJsonEncoder.create(context);
        }
        PatternLayoutEncoder text = new PatternLayoutEncoder();
        text.setContext(context);
        text.setPattern(TEXT_PATTERN);
        text.start();
        return text;
    }

    /** An appender on the root logger; {@code errors}: only errors (true), none (false) or all (null). */
    private static void attach(LoggerContext context, String name, Encoder<ILoggingEvent> encoder, OutputStream out,
            boolean immediateFlush, Boolean errors) {
        OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
        appender.setContext(context);
        appender.setName(name);
        appender.setEncoder(encoder);
        appender.setImmediateFlush(immediateFlush);
        if (errors != null) {
            appender.addFilter(new Filter<>() {
                @Override
                public FilterReply decide(ILoggingEvent event) {
                    return KlogJsonFields.isError(event) == errors ? FilterReply.NEUTRAL : FilterReply.DENY;
                }
            });
        }
        appender.setOutputStream(out);
        appender.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
    }

    /** The process's stdout or stderr, which Logback must not close when it stops an appender. */
    private static OutputStream kept(OutputStream stream) {
        return new FilterOutputStream(stream) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                flush();
            }
        };
    }

    /** Sets klog's {@code -v} ({@code PUT /debug/flags/v}). */
    public void setVerbosity(long v) {
        verbosity.setVerbosity(v);
    }

    /** Writes out buffered info messages (klog's {@code Flush}). */
    public void flush() {
        infoBuffer.ifPresent(buffer -> {
            try {
                buffer.flush();
            } catch (IOException e) {
                // stdout is gone: nothing left to tell it.
            }
        });
    }

    /** Stops the flush daemon and flushes what is buffered. */
    @Override
    public void close() {
        flushDaemon.ifPresent(ScheduledExecutorService::shutdownNow);
        flush();
    }
}
