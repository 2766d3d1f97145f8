package io.jkubelet.cmd;

import io.jkubelet.cmd.logs.KubeletLogging;
import io.jkubelet.core.apis.config.LoggingConfiguration;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * The {@code jkubelet} entry program (upstream {@code cmd/kubelet}): flags and config file to a
 * {@link KubeletServer}, then {@link KubeletApp}. Every bad input ends the process before anything starts,
 * with exit code 1 and one message naming the flag, field or file and what is wrong.
 */
public final class Main {
    /** From this verbosity on ({@code -v=4}, klog's debug level), a start-up failure also shows its stack trace. */
    static final long STACK_TRACE_VERBOSITY = 4;

    private Main() {}

    public static void main(String[] args) {
        StartupStep<Void> codecWarmUp = CodecWarmUp.begin(args);
        KubeletInvocation invocation;
        try {
            invocation = KubeletCommand.parse(args);
        } catch (FlagsException e) {
            System.err.println("Error: " + e.getMessage());
            System.exit(1);
            return;
        }
        if (invocation instanceof KubeletInvocation.PrintAndExit p) {
            System.out.print(p.output().endsWith("\n") ? p.output() : p.output() + "\n");
            System.exit(0);
            return;
        }
        KubeletInvocation.Run run = (KubeletInvocation.Run) invocation;
        run.warnings().forEach(System.err::println);
        KubeletServer server = run.server();
        // As upstream's ValidateAndApply: everything after the flags logs in the configured format.
        KubeletLogging logging = KubeletLogging.apply(server.config().logging());
        KubeletApp app;
        try {
            app = KubeletApp.start(server, logging::setVerbosity, codecWarmUp);
        } catch (StartupException e) {
            reportStartupFailure(e, server.config().logging(), System.err);
            logging.close();
            System.exit(1);
            return;
        }
        // The kubelet's pods outlive it: stopping it leaves every container running.
        TerminationSignals.install(app::close);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            app.close();
            logging.close();
        }, "shutdown"));
        app.awaitTermination();
        logging.close();
    }

    /**
     * What a failed start-up says, as component-base's {@code cli.Run} once logging is set up: in the text format
     * {@code Error: <message>} on {@code err}, in the JSON format one more JSON line ({@code command failed} with the
     * message as {@code err}). From {@link #STACK_TRACE_VERBOSITY} on, the failure's stack trace follows (its
     * {@code stacktrace} key in JSON), causes included.
     */
    static void reportStartupFailure(StartupException e, LoggingConfiguration logging, PrintStream err) {
        boolean stackTrace = logging.verbosity() >= STACK_TRACE_VERBOSITY;
        if (LoggingConfiguration.FORMAT_JSON.equals(logging.format())) {
            LoggingEventBuilder line = LoggerFactory.getLogger(Main.class).atError().addKeyValue("err", e.getMessage());
            if (stackTrace) {
                line = line.addKeyValue("stacktrace", stackTrace(e));
            }
            line.log("command failed");
        } else {
            err.println("Error: " + e.getMessage());
            if (stackTrace) {
                e.printStackTrace(err);
            }
        }
    }

    private static String stackTrace(Throwable e) {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        return trace.toString();
    }
}
