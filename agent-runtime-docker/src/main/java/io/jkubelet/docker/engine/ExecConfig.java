package io.jkubelet.docker.engine;

import java.util.List;

/** The body of {@code POST /containers/{id}/exec}. */
public record ExecConfig(Boolean attachStdin, Boolean attachStdout, Boolean attachStderr, Boolean tty,
                         List<String> cmd, List<String> env, String user, String workingDir) {

    /** A command whose output (and stdin when asked) is attached, with or without a TTY. */
    public static ExecConfig of(List<String> cmd, boolean stdin, boolean tty) {
        return new ExecConfig(stdin, true, !tty, tty, cmd, null, null, null);
    }
}
