package io.jkubelet.cmd.logs;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.spi.ContextAwareBase;
import io.jkubelet.core.apis.config.LoggingConfiguration;

/**
 * Logback's configuration until the agent's own {@code logging} is read: the defaults of {@link KubeletLogging}
 * (klog's text lines on stderr, verbosity 0). Set up in code, found by Logback through {@code ServiceLoader}: a
 * {@code logback.xml} made every start load Logback's XML configurator and the JDK's SAX parser, about 300 classes
 * that the agent never used again (start-up time, and metaspace for the process's life). A {@code logback-test.xml}
 * on the class path still wins, so the modules' tests keep their own.
 */
public final class BootLogging extends ContextAwareBase implements Configurator {

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (getClass().getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        KubeletLogging.apply(LoggingConfiguration.builder().verbosity(0).build(), context, System.out, System.err);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
