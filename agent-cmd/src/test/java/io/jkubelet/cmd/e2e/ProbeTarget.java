package io.jkubelet.cmd.e2e;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP server on the node's loopback that probes and hooks with {@code host: 127.0.0.1} reach: the
 * kubelet probes from the node, so a test can see exactly what the agent sends and answer as it likes.
 */
final class ProbeTarget implements AutoCloseable {
    /** One request as the server saw it. */
    record Request(String path, Map<String, List<String>> headers) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> String.join(",", e.getValue())).findFirst().orElse(null);
        }
    }

    /** How a path answers: a status, and a Location for redirects. */
    record Answer(int status, String location) {}

    private final HttpServer server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    final List<Request> requests = new CopyOnWriteArrayList<>();

    ProbeTarget() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    void answer(String path, int status) {
        answers.put(path, new Answer(status, null));
    }

    void redirect(String path, String location) {
        answers.put(path, new Answer(302, location));
    }

    List<Request> requestsTo(String path) {
        return requests.stream().filter(r -> r.path().equals(path)).toList();
    }

    private void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        requests.add(new Request(path, Map.copyOf(ex.getRequestHeaders())));
        Answer a = answers.getOrDefault(path, new Answer(404, null));
        if (a.location() != null) {
            ex.getResponseHeaders().add("Location", a.location());
        }
        byte[] body = ("answer for " + path).getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(a.status(), body.length);
        ex.getResponseBody().write(body);
        ex.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
