package io.jkubelet.cmd;

import java.util.List;

/** What the command line asks for: run the kubelet, or print something (help, version) and exit 0. */
public sealed interface KubeletInvocation {

    /**
     * Start the kubelet with this server, after printing {@code warnings} (deprecated flags used) to standard error.
     */
    record Run(KubeletServer server, List<String> warnings) implements KubeletInvocation {
        public Run {
            warnings = List.copyOf(warnings);
        }

        public Run(KubeletServer server) {
            this(server, List.of());
        }
    }

    /** Print {@code output} to standard output as it is (it ends with a newline) and exit with status 0. */
    record PrintAndExit(String output) implements KubeletInvocation {
    }
}
