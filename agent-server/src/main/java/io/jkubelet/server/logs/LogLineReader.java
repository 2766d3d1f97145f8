package io.jkubelet.server.logs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads a log file line by line from a position, keeping an unfinished last line for later (a writer may
 * be in the middle of it), so that following a log never splits a line. Not thread-safe.
 */
final class LogLineReader {

    private final FileChannel file;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024).flip();
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    LogLineReader(FileChannel file) {
        this.file = file;
    }

    /** The next line with its newline, or null at the end of the file (an unfinished line is kept). */
    byte[] readLine() throws IOException {
        while (true) {
            int start = buffer.position();
            for (int i = start; i < buffer.limit(); i++) {
                if (buffer.get(i) == '\n') {
                    pending.write(buffer.array(), start, i + 1 - start);
                    buffer.position(i + 1);
                    byte[] line = pending.toByteArray();
                    pending.reset();
                    return line;
                }
            }
            pending.write(buffer.array(), start, buffer.limit() - start);
            buffer.clear();
            int n = file.read(buffer);
            buffer.flip();
            if (n <= 0) {
                return null;
            }
        }
    }

    /** The unfinished last line (without newline), taken away; empty when there is none. */
    byte[] takeUnfinished() {
        byte[] rest = pending.toByteArray();
        pending.reset();
        return rest;
    }
}
