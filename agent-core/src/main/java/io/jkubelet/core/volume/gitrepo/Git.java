package io.jkubelet.core.volume.gitrepo;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The host's {@code git}, run in a directory with an explicit argument list (never through a shell: the arguments are
 * the pod's), its output and error read together, as upstream's {@code exec.Command(...).CombinedOutput()}. Thread-safe.
 */
final class Git {
    private static final File DEV_NULL = new File("/dev/null");

    private final String binary;

    /** @param binary {@code git}, looked up in the kubelet's {@code PATH}, or a path to it */
    Git(String binary) {
        this.binary = binary;
    }

    String binary() {
        return binary;
    }

    /** A git that did not succeed: what it printed, and why (Go's {@code exec} words, as upstream's messages show). */
    static final class GitException extends Exception {
        private final String output;
        private final boolean started;

        GitException(String output, String error, boolean started) {
            super(error);
            this.output = output;
            this.started = started;
        }

        /** Its standard output and error together; empty when it did not start. */
        String output() {
            return output;
        }

        /** False when the binary could not be run at all (not installed, not executable). */
        boolean started() {
            return started;
        }
    }

    /**
     * Runs {@code git <args>} in {@code dir}, its standard input empty. It never prompts (a kubelet has no one to answer
     * a password prompt, which would hold the volume's operation for ever).
     *
     * @return what it printed
     * @throws GitException {@code exit status <n>} when it failed, or why it could not start
     * @throws InterruptedException the waiting thread was interrupted: the process is killed
     */
    String run(Path dir, List<String> args) throws GitException, InterruptedException {
        List<String> command = new ArrayList<>(args.size() + 1);
        command.add(binary);
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL));
        pb.environment().put("GIT_TERMINAL_PROMPT", "0");
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new GitException("", startFailure(e), false);
        }
        try {
            String output;
            try (InputStream out = process.getInputStream()) {
                output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new GitException("", "reading the output of " + binary + ": " + e.getMessage(), true);
            }
            int exit = process.waitFor();
            if (exit != 0) {
                throw new GitException(output, "exit status " + exit, true);
            }
            return output;
        } finally {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
        }
    }

    /**
     * Why it did not start, in Go's words where it is not there (Java's own wording differs by launch mechanism):
     * {@code exec: "git": executable file not found in $PATH}.
     */
    private String startFailure(IOException e) {
        if (!binary.contains("/") && !onPath()) {
            return "exec: \"" + binary + "\": executable file not found in $PATH";
        }
        return "exec: \"" + binary + "\": " + e.getMessage().strip();
    }

    private boolean onPath() {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, binary))) {
                return true;
            }
        }
        return false;
    }
}
