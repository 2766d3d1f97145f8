package io.jkubelet.docker.engine;

import java.io.IOException;
import java.io.InputStream;

/** An input stream that reads in bulk only; a single byte is read as a bulk read of one. */
abstract class BulkInputStream extends InputStream {
    @Override
    public final int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public abstract int read(byte[] b, int off, int len) throws IOException;
}
