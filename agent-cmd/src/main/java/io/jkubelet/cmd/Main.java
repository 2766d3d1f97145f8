package io.jkubelet.cmd;

import io.jkubelet.cmd.logs.KubeletLogging;
import io.jkubelet.core.apis.config.LoggingConfiguration;
import org.slf4j.LoggerFactory;

/**
 * The {@code jkubelet} entry program (upstream {@code cmd/kubelet}): flags and config file to a
 * {@link KubeletServer}, then {@link KubeletApp}. Every bad input ends the process before anything starts,
 * with exit code 1 and one message naming the flag, field or file and what is wrong.
 */
public final class Main {
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
        } catch (KubeletApp.StartupException e) {
            if (LoggingConfiguration.FORMAT_JSON.equals(server.config().logging().format())) {
                // component-base's cli.Run once logging is set up: the failure is one more JSON line.
                LoggerFactory.getLogger(Main.class).atError().addKeyValue("err", e.getMessage()).log("command failed");
            } else {
                System.err.println("Error: " + e.getMessage());
            }
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
}
