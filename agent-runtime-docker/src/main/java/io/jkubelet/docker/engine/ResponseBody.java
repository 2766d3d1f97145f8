package io.jkubelet.docker.engine;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * An answer's body as its head frames it ({@code chunked}, {@code Content-Length}, none, or until the connection
 * ends), which tells {@link #onEnd} whether the connection is left at the next answer when the body has been read.
 */
final class ResponseBody extends BulkInputStream {
    /** Told once: true when the body was read to its end and the connection may carry another call. */
    interface EndListener {
        void ended(boolean reusable);
    }

    private final InputStream framed;
    private final boolean reusable;
    private final EndListener onEnd;
    private boolean done;

    private ResponseBody(InputStream framed, boolean reusable, EndListener onEnd) {
        this.framed = framed;
        this.reusable = reusable;
        this.onEnd = onEnd;
    }

    /** The body of the answer {@code head} to a {@code method} request, read from {@code in}. */
    static ResponseBody of(ResponseHead head, String method, InputStream in, EndListener onEnd) throws IOException {
        String encoding = head.header("Transfer-Encoding");
        String length = head.header("Content-Length");
        boolean bodiless = method.equals("HEAD") || head.status() == 204 || head.status() == 304
                || head.status() / 100 == 1;
        ResponseBody body;
        if (bodiless) {
            body = new ResponseBody(InputStream.nullInputStream(), head.keepAlive(), onEnd);
        } else if (encoding != null && encoding.toLowerCase(Locale.ROOT).endsWith("chunked")) {
            body = new ResponseBody(new ChunkedInputStream(in), head.keepAlive(), onEnd);
        } else if (length != null) {
            long n;
            try {
                n = Long.parseLong(length.strip());
            } catch (NumberFormatException e) {
                throw new EngineProtocolException("malformed Content-Length \"" + length + "\"");
            }
            if (n < 0) {
                throw new EngineProtocolException("malformed Content-Length \"" + length + "\"");
            }
            body = new ResponseBody(new Bounded(in, n), head.keepAlive(), onEnd);
        } else {
            body = new ResponseBody(in, false, onEnd); // read until the daemon closes
        }
        if (bodiless || "0".equals(length)) {
            body.finish(body.reusable);
        }
        return body;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (done) {
            return -1;
        }
        int n;
        try {
            n = framed.read(b, off, len);
        } catch (IOException e) {
            finish(false);
            throw e;
        }
        if (n < 0) {
            finish(reusable);
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        return done ? 0 : framed.available();
    }

    /** Stops reading: a body not read to its end leaves the connection mid-answer, so it is dropped. */
    @Override
    public void close() {
        finish(false);
    }

    private void finish(boolean connectionReusable) {
        if (!done) {
            done = true;
            onEnd.ended(connectionReusable);
        }
    }

    /** A {@code Content-Length} body. */
    private static final class Bounded extends BulkInputStream {
        private final InputStream in;
        private long left;

        Bounded(InputStream in, long length) {
            this.in = in;
            this.left = length;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left == 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException("the connection ended " + left + " bytes before the body's Content-Length");
            }
            left -= n;
            return n;
        }

        @Override
        public int available() throws IOException {
            return (int) Math.min(left, in.available());
        }
    }
}
