package io.jkubelet.server.logs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Where the last {@code n} lines of a file begin, found by reading backwards from the end block by block
 * (upstream {@code tail.FindTailLineStartIndex}), so that {@code tailLines=10} on a big log reads a few
 * kilobytes, not the file.
 */
final class LogTailIndex {

    private static final int BLOCK_SIZE = 8192;

    private LogTailIndex() {}

    /**
     * Where the last lines of a file begin.
     *
     * @param start the offset of the first of them
     * @param lines how many ended lines follow {@code start}: {@code n}, or fewer when the file has no more
     */
    record Tail(long start, long lines) {}

    /** The offset of the first of the last {@code n} lines; 0 when {@code n} is negative (everything). */
    static long find(FileChannel file, long n) throws IOException {
        return n < 0 ? 0 : tail(file, n).start();
    }

    /** The last {@code n} lines ({@code n >= 0}) of {@code file}, or all when it has no more. */
    static Tail tail(FileChannel file, long n) throws IOException {
        long size = file.size();
        long left = 0;
        long count = 0;
        byte[] block = new byte[0];
        // A final newline ends the last line, so n lines need n+1 newlines before them to be bounded.
        for (long right = size; right > 0 && count <= n; right -= BLOCK_SIZE) {
            left = Math.max(0, right - BLOCK_SIZE);
            block = read(file, left, (int) (right - left));
            for (byte b : block) {
                if (b == '\n') {
                    count++;
                }
            }
        }
        int idx = 0;
        for (; count > n; count--) {
            while (block[idx] != '\n') {
                idx++;
            }
            idx++;
        }
        return new Tail(left + idx, count);
    }

    private static byte[] read(FileChannel file, long position, int length) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(length);
        while (buf.hasRemaining()) {
            int n = file.read(buf, position + buf.position());
            if (n < 0) {
                break; // the file shrank meanwhile
            }
        }
        byte[] out = new byte[buf.position()];
        buf.flip().get(out);
        return out;
    }
}
