package io.jkubelet.cmd;

/** What the command line asks for: run the kubelet, or print something (help, version) and exit 0. */
public sealed interface KubeletInvocation {

    /** Start the kubelet with this server. */
    record Run(KubeletServer server) implements KubeletInvocation {
    }

    /** Print {@code output} to standard output as it is (it ends with a newline) and exit with status 0. */
    record PrintAndExit(String output) implements KubeletInvocation {
    }
}
