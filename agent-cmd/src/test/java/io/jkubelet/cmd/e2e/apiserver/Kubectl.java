package io.jkubelet.cmd.e2e.apiserver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The real kubectl (/usr/bin/kubectl, or $KUBECTL) against a kubeconfig, as an operator runs it. */
public final class Kubectl {
    public record Result(int exitCode, String out, String err) {
        public Result ok() {
            if (exitCode != 0) {
                throw new AssertionError("kubectl failed with " + exitCode + ": " + err + out);
            }
            return this;
        }
    }

    private final Path kubeconfig;

    public Kubectl(Path kubeconfig) {
        this.kubeconfig = kubeconfig;
    }

    public static String binary() {
        String env = System.getenv("KUBECTL");
        return env != null && !env.isEmpty() ? env : "kubectl";
    }

    public Result run(String... args) {
        return runWithInput(null, args);
    }

    public Result runWithInput(String stdin, String... args) {
        List<String> cmd = new ArrayList<>(List.of(binary(), "--kubeconfig", kubeconfig.toString(), "--request-timeout", "20s"));
        cmd.addAll(List.of(args));
        try {
            Path in = Files.writeString(Files.createTempFile("kubectl", ".in"), stdin == null ? "" : stdin);
            Path out = Files.createTempFile("kubectl", ".out");
            Path err = Files.createTempFile("kubectl", ".err");
            try {
                // Input and output are files, so that a kubectl that never ends (an exec whose stdin end is lost) or
                // never reads its input times out instead of blocking the test on a pipe.
                Process p = new ProcessBuilder(cmd).redirectInput(in.toFile()).redirectOutput(out.toFile())
                        .redirectError(err.toFile()).start();
                if (!p.waitFor(90, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException("timed out: " + String.join(" ", cmd));
                }
                return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
            } finally {
                Files.deleteIfExists(in);
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + cmd + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
