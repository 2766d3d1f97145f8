package io.jkubelet.core.probe;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A loopback server that records each request head exactly as received (line by line, in order) and
 * answers with a fixed response, or never answers ({@code response == null}) to exercise timeouts.
 */
final class RawHttpServer implements AutoCloseable {
    private final ServerSocket server;
    private final String response;
    private final List<List<String>> heads = Collections.synchronizedList(new ArrayList<>());
    private final List<Socket> open = Collections.synchronizedList(new ArrayList<>());

    RawHttpServer(String response) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.response = response;
        Thread.ofVirtual().start(this::serve);
    }

    int port() {
        return server.getLocalPort();
    }

    /** The request heads received so far, each as its lines without CRLF. */
    List<List<String>> heads() {
        synchronized (heads) {
            return List.copyOf(heads);
        }
    }

    private void serve() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                open.add(s);
                Thread.ofVirtual().start(() -> answer(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void answer(Socket s) {
        try {
            InputStream in = s.getInputStream();
            List<String> lines = new ArrayList<>();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                if (b == '\n') {
                    String text = line.toString(StandardCharsets.UTF_8).replaceAll("\r$", "");
                    line.reset();
                    if (text.isEmpty()) {
                        break;
                    }
                    lines.add(text);
                } else {
                    line.write(b);
                }
            }
            heads.add(lines);
            if (response == null) {
                return; // hang: keep the connection open, say nothing
            }
            s.getOutputStream().write(response.getBytes(StandardCharsets.UTF_8));
            s.close();
        } catch (IOException ignored) {
            // the client went away
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        synchronized (open) {
            for (Socket s : open) {
                s.close();
            }
        }
    }
}
