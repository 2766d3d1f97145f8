package io.jkubelet.server.streaming;

import io.jkubelet.server.http.Request;

/**
 * Which streams an exec or attach asks for, from the query as upstream's {@code remotecommand.NewOptions}
 * reads it: {@code input}, {@code output}, {@code error}, {@code tty} (the API's {@code ExecStdinParam},
 * {@code ExecStdoutParam}, {@code ExecStderrParam}, {@code ExecTTYParam}: the names the apiserver sends when it
 * proxies {@code kubectl exec}), each on only when its value is {@code 1}. A TTY has no separate stderr, so
 * {@code tty} turns stderr off.
 */
public record RemoteCommandOptions(boolean stdin, boolean stdout, boolean stderr, boolean tty) {

    public static final String STDIN_PARAM = "input";
    public static final String STDOUT_PARAM = "output";
    public static final String STDERR_PARAM = "error";
    public static final String TTY_PARAM = "tty";

    /** @throws IllegalArgumentException with upstream's text when no stream is asked for */
    public static RemoteCommandOptions parse(Request request) {
        boolean tty = on(request, TTY_PARAM);
        boolean stdin = on(request, STDIN_PARAM);
        boolean stdout = on(request, STDOUT_PARAM);
        boolean stderr = on(request, STDERR_PARAM) && !tty;
        if (!stdin && !stdout && !stderr) {
            throw new IllegalArgumentException("you must specify at least 1 of stdin, stdout, stderr");
        }
        return new RemoteCommandOptions(stdin, stdout, stderr, tty);
    }

    /** Go's {@code FormValue(name) == "1"}: the first value decides. */
    private static boolean on(Request request, String name) {
        return "1".equals(request.queryParam(name));
    }
}
