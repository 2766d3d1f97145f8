package io.jkubelet.core.runtime;

/**
 * A terminal's size in character cells, as a client's resize event carries it (upstream
 * {@code remotecommand.TerminalSize}).
 */
public record TerminalSize(int width, int height) {
    public TerminalSize {
        if (width < 0 || height < 0 || width > 0xFFFF || height > 0xFFFF) {
            throw new IllegalArgumentException("terminal size " + width + "x" + height + " is out of range 0..65535");
        }
    }
}
