package io.jkubelet.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A bare HTTP/1.x client on a socket, for what the JDK client will not send. Test helper. */
final class RawHttp implements AutoCloseable {

    record RawResponse(String statusLine, Map<String, String> headers, String body) {
        int status() {
            return Integer.parseInt(statusLine.split(" ")[1]);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawHttp(int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(30_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    void send(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads one response (Content-Length framed). */
    RawResponse read() throws IOException {
        return read(false);
    }

    /** Reads one response; the answer to a HEAD request has headers only. */
    RawResponse read(boolean head) throws IOException {
        String statusLine = line();
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String l; !(l = line()).isEmpty(); ) {
            int colon = l.indexOf(':');
            headers.put(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim());
        }
        int length = head ? 0 : Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        return new RawResponse(statusLine, headers, new String(body, StandardCharsets.UTF_8));
    }

    /** Reads a status line and headers only (for chunked or close-delimited bodies). */
    RawResponse readHead() throws IOException {
        String statusLine = line();
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String l; !(l = line()).isEmpty(); ) {
            int colon = l.indexOf(':');
            headers.put(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim());
        }
        return new RawResponse(statusLine, headers, "");
    }

    /** Reads one chunk of a chunked body: its bytes, or null for the last (empty) chunk and its trailer. */
    byte[] readChunk() throws IOException {
        String sizeLine = line();
        if (sizeLine == null) {
            throw new IOException("connection closed inside a chunked body");
        }
        int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
        if (size == 0) {
            while (!line().isEmpty()) {
                // trailer lines
            }
            return null;
        }
        byte[] data = in.readNBytes(size);
        if (data.length < size) {
            throw new IOException("connection closed inside a chunk");
        }
        line();
        return data;
    }

    /** Reads a whole chunked body. */
    String readChunkedBody() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (byte[] c; (c = readChunk()) != null; ) {
            body.write(c);
        }
        return body.toString(StandardCharsets.UTF_8);
    }

    /** Reads until the server closes the connection. */
    String readToEnd() throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    /** Whether the server closed the connection (read gives end of stream). */
    boolean closedByServer() throws IOException {
        try {
            return in.read() == -1;
        } catch (java.net.SocketException e) {
            return true; // reset by the server
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                break;
            }
            if (c != '\r') {
                buf.write(c);
            }
        }
        if (c == -1 && buf.size() == 0) {
            return null;
        }
        return buf.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
