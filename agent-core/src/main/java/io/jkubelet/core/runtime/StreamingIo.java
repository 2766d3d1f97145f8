package io.jkubelet.core.runtime;

import java.io.InputStream;
import java.io.OutputStream;

/**
 * The client's side of a streaming exec or attach: which standard streams it asked for, and whether the
 * process gets a terminal. A null stream was not requested. With {@code tty} there is no separate stderr
 * (a terminal merges it into stdout), so {@code stderr} is then null.
 *
 * <p>The runtime reads {@code stdin} until its end (then closes the process's stdin, so that {@code cat}
 * ends) and writes output as it comes; it never closes the output streams: their owner does, after the
 * call has returned.
 *
 * @param resize the terminal's size changes; only read with {@code tty}
 */
public record StreamingIo(InputStream stdin, OutputStream stdout, OutputStream stderr, boolean tty,
                          TerminalSizeQueue resize) {

    public StreamingIo {
        if (stdin == null && stdout == null && stderr == null) {
            throw new IllegalArgumentException("a streaming session needs at least one of stdin, stdout, stderr");
        }
        if (tty && stderr != null) {
            throw new IllegalArgumentException("a streaming session with a TTY has no separate stderr");
        }
        resize = resize == null ? TerminalSizeQueue.NONE : resize;
    }
}
