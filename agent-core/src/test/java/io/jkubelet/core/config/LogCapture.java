package io.jkubelet.core.config;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Captures what one class logs at INFO and above. Close it to detach. */
final class LogCapture implements AutoCloseable {

    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Level previousLevel;

    LogCapture(Class<?> type) {
        logger = (Logger) LoggerFactory.getLogger(type);
        previousLevel = logger.getLevel();
        logger.setLevel(Level.DEBUG);
        appender.start();
        logger.addAppender(appender);
    }

    /** Formatted messages at {@code level} or above. */
    synchronized List<String> messages(Level level) {
        return appender.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(level))
                .map(ILoggingEvent::getFormattedMessage).toList();
    }

    List<String> warnings() {
        return messages(Level.WARN);
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(previousLevel);
    }
}
