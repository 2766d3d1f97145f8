package io.jkubelet.cmd;

/**
 * The {@code jkubelet} entry program (upstream {@code cmd/kubelet}): flags and config file to a
 * {@link KubeletServer}, then {@link KubeletApp}. Every bad input ends the process before anything starts,
 * with exit code 1 and one message naming the flag, field or file and what is wrong.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
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
        KubeletApp app;
        try {
            app = KubeletApp.start(server);
        } catch (KubeletApp.StartupException e) {
            System.err.println("Error: " + e.getMessage());
            System.exit(1);
            return;
        }
        // The kubelet's pods outlive it: stopping it leaves every container running.
        TerminationSignals.install(app::close);
        Runtime.getRuntime().addShutdownHook(new Thread(app::close, "shutdown"));
        app.awaitTermination();
    }
}
