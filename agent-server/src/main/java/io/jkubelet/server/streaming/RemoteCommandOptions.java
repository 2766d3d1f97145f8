package io.jkubelet.server.streaming;

import io.jkubelet.server.http.Request;

/**
 * Which streams an exec or attach asks for, from the query as upstream's {@code remotecommand.NewOptions}
 * reads it: {@code stdin}, {@code stdout}, {@code stderr}, {@code tty}, each on only when its value is
 * {@code 1} (what the apiserver sends). A TTY has no separate stderr, so {@code tty} turns stderr off.
 */
public record RemoteCommandOptions(boolean stdin, boolean stdout, boolean stderr, boolean tty) {

    /** @throws IllegalArgumentException with upstream's text when no stream is asked for */
    public static RemoteCommandOptions parse(Request request) {
        boolean tty = on(request, "tty");
        boolean stdin = on(request, "stdin");
        boolean stdout = on(request, "stdout");
        boolean stderr = on(request, "stderr") && !tty;
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
