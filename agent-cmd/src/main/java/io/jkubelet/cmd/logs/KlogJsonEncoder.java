package io.jkubelet.cmd.logs;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Context;
import net.logstash.logback.composite.JsonProviders;
import net.logstash.logback.composite.loggingevent.KeyValuePairsJsonProvider;
import net.logstash.logback.composite.loggingevent.MessageJsonProvider;
import net.logstash.logback.encoder.LoggingEventCompositeJsonEncoder;

/**
 * logging.format=json: one JSON object per line with component-base's fields in its order, {@code ts}, {@code caller},
 * {@code msg}, {@code v} (info messages), the message's key/value pairs (SLF4J's {@code addKeyValue}), {@code err}:
 * <pre>{"ts":1733356800123.456,"caller":"cmd/KubeletApp.java:101","msg":"Starting jkubelet ...","v":0}</pre>
 * Written by logstash-logback-encoder's composite encoder (Jackson's generator), with {@link KlogJsonFields} for the
 * fields it has no provider for.
 */
public final class KlogJsonEncoder {

    private KlogJsonEncoder() {
    }

    /** A started encoder of {@code context}. */
    public static LoggingEventCompositeJsonEncoder create(Context context) {
        JsonProviders<ILoggingEvent> providers = new JsonProviders<>();
        providers.addProvider(new KlogJsonFields.Timestamp());
        providers.addProvider(new KlogJsonFields.Caller());
        MessageJsonProvider message = new MessageJsonProvider();
        message.setFieldName("msg");
        providers.addProvider(message);
        providers.addProvider(new KlogJsonFields.Verbosity());
        providers.addProvider(new KeyValuePairsJsonProvider());
        providers.addProvider(new KlogJsonFields.Err());
        LoggingEventCompositeJsonEncoder encoder = new LoggingEventCompositeJsonEncoder();
        encoder.setContext(context);
        encoder.setProviders(providers);
        encoder.start();
        return encoder;
    }
}
