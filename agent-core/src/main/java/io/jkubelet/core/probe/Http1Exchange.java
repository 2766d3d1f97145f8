package io.jkubelet.core.probe;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One HTTP/1.1 GET on a fresh connection, closed afterwards ({@code Connection: close}, as upstream's
 * {@code DisableKeepAlives}): writes the request head, reads the status line and headers, and reads at most
 * {@code bodyLimit} bytes of the body (identity, {@code Content-Length} or chunked). Every read waits at
 * most until the exchange's deadline. Not thread-safe; one instance per exchange.
 */
final class Http1Exchange {
    /** Go's transport refuses response headers above 1 MiB by default; so do we. */
    private static final int MAX_HEADER_BYTES = 1 << 20;

    record Response(int statusCode, List<HttpHeader> headers, byte[] body) {
        String header(String name) {
            for (HttpHeader h : headers) {
                if (h.name().equalsIgnoreCase(name)) {
                    return h.value();
                }
            }
            return null;
        }
    }

    /** Thrown when the deadline passed after the headers arrived (upstream words it differently). */
    static final class BodyTimeoutException extends SocketTimeoutException {
        BodyTimeoutException() {
            super("context deadline exceeded (Client.Timeout or context cancellation while reading body)");
        }
    }

    private final Socket socket;
    private final long deadlineNanos;
    private final InputStream in;
    private int headerBytes;

    Http1Exchange(Socket socket, long deadlineNanos) throws IOException {
        this.socket = socket;
        this.deadlineNanos = deadlineNanos;
        this.in = new BufferedInputStream(new DeadlineInputStream(socket.getInputStream()), 8192);
    }

    Response get(HttpGetRequest request, int bodyLimit) throws IOException {
        writeHead(request);
        int status;
        List<HttpHeader> headers;
        do { // 1xx informational responses precede the real one
            status = readStatusLine();
            headers = readHeaders();
        } while (status >= 100 && status < 200 && status != 101);
        byte[] body;
        try {
            body = readBody(status, headers, bodyLimit);
        } catch (SocketTimeoutException e) {
            throw new BodyTimeoutException();
        }
        return new Response(status, headers, body);
    }

    private void writeHead(HttpGetRequest request) throws IOException {
        StringBuilder head = new StringBuilder(256);
        head.append("GET ").append(request.target()).append(" HTTP/1.1\r\n");
        head.append("Host: ").append(request.hostHeader()).append("\r\n");
        for (HttpHeader h : request.headers()) {
            head.append(h.name()).append(": ").append(h.value()).append("\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        OutputStream out = socket.getOutputStream();
        out.write(head.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private int readStatusLine() throws IOException {
        String line = readLine();
        if (line == null) {
            throw new EOFException("EOF");
        }
        // "HTTP/1.1 200 OK"; the reason phrase may be missing
        String[] parts = line.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/") || parts[1].length() != 3) {
            throw new IOException("malformed HTTP response " + GoFormat.quote(line));
        }
        try {
            return Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new IOException("malformed HTTP status code " + GoFormat.quote(parts[1]));
        }
    }

    private List<HttpHeader> readHeaders() throws IOException {
        List<HttpHeader> headers = new ArrayList<>();
        while (true) {
            String line = readLine();
            if (line == null) {
                throw new EOFException("unexpected EOF");
            }
            if (line.isEmpty()) {
                return headers;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("malformed MIME header line: " + line);
            }
            headers.add(new HttpHeader(line.substring(0, colon).trim(), line.substring(colon + 1).trim()));
        }
    }

    private byte[] readBody(int status, List<HttpHeader> headers, int limit) throws IOException {
        if (status == 204 || status == 304 || (status >= 100 && status < 200)) {
            return new byte[0];
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String transferEncoding = value(headers, "Transfer-Encoding");
        if (transferEncoding != null && transferEncoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            readChunked(body, limit);
            return body.toByteArray();
        }
        String contentLength = value(headers, "Content-Length");
        long remaining = Long.MAX_VALUE;
        if (contentLength != null) {
            try {
                remaining = Long.parseLong(contentLength.trim());
            } catch (NumberFormatException e) {
                throw new IOException("bad Content-Length " + GoFormat.quote(contentLength));
            }
        }
        copy(body, Math.min(remaining, limit), contentLength != null);
        return body.toByteArray();
    }

    private void readChunked(ByteArrayOutputStream body, int limit) throws IOException {
        while (body.size() < limit) {
            String line = readLine();
            if (line == null) {
                throw new EOFException("unexpected EOF");
            }
            int semi = line.indexOf(';');
            String hex = (semi >= 0 ? line.substring(0, semi) : line).trim();
            long size;
            try {
                size = Long.parseLong(hex, 16);
            } catch (NumberFormatException e) {
                throw new IOException("malformed chunked encoding");
            }
            if (size == 0) {
                return; // trailers are of no interest: the connection is closed next
            }
            long wanted = Math.min(size, limit - body.size());
            copy(body, wanted, true);
            if (wanted < size) {
                return; // limit reached
            }
            readLine(); // the CRLF after the chunk data
        }
    }

    /** Copies up to {@code max} bytes; an early EOF is an error only when the length was promised. */
    private void copy(ByteArrayOutputStream body, long max, boolean promised) throws IOException {
        byte[] buf = new byte[4096];
        long left = max;
        while (left > 0) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (n < 0) {
                if (promised) {
                    throw new EOFException("unexpected EOF");
                }
                return;
            }
            body.write(buf, 0, n);
            left -= n;
        }
    }

    /** A line without its CRLF (or LF), or null at EOF before any byte. */
    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        while (true) {
            int b = in.read();
            if (b < 0) {
                return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
            }
            if (++headerBytes > MAX_HEADER_BYTES) {
                throw new IOException("server response headers exceeded " + MAX_HEADER_BYTES + " bytes; aborted");
            }
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int len = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, len, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
    }

    private static String value(List<HttpHeader> headers, String name) {
        for (HttpHeader h : headers) {
            if (h.name().equalsIgnoreCase(name)) {
                return h.value();
            }
        }
        return null;
    }

    /** Bounds every read by the exchange's deadline, not just each read by a fixed timeout. */
    private final class DeadlineInputStream extends FilterInputStream {
        DeadlineInputStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            arm();
            return super.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            arm();
            return super.read(b, off, len);
        }

        private void arm() throws IOException {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                throw new SocketTimeoutException("deadline passed");
            }
            socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000)));
        }
    }
}
