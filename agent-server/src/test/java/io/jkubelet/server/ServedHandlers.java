package io.jkubelet.server;

import io.jkubelet.server.http.HttpServer;
import io.jkubelet.server.http.HttpServerConfig;
import io.jkubelet.server.http.Router;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * The kubelet's handlers served for real on a loopback port, with an HTTP/1.1 client that reads each answer
 * whole: the one fixture of the endpoint tests (here and, through the test-jar, in agent-cmd).
 */
public final class ServedHandlers implements AutoCloseable {
    /** Which of the kubelet's handler groups to serve. */
    public enum Group { AUTH_NOT_REQUIRED, DEBUGGING }

    private final HttpServer server;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private ServedHandlers(HttpServer server) {
        this.server = server;
    }

    /** Serves {@code groups} of {@code handlers} (both when none is named). */
    public static ServedHandlers start(KubeletHandlers handlers, Group... groups) throws IOException {
        Router.Builder router = Router.builder();
        boolean all = groups.length == 0;
        for (Group g : all ? Group.values() : groups) {
            switch (g) {
                case AUTH_NOT_REQUIRED -> handlers.installAuthNotRequired(router);
                case DEBUGGING -> handlers.installDebugging(router);
            }
        }
        return new ServedHandlers(HttpServer.start(
                HttpServerConfig.kubeletDefaults("main", InetAddress.getLoopbackAddress(), 0), router.build()));
    }

    public int port() {
        return server.port();
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    public HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(uri(path));
    }

    public HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return send(request, HttpResponse.BodyHandlers.ofString());
    }

    public <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> body)
            throws IOException, InterruptedException {
        return client.send(request.build(), body);
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(request(path));
    }

    public HttpResponse<String> post(String path) throws IOException, InterruptedException {
        return send(request(path).POST(HttpRequest.BodyPublishers.noBody()));
    }

    @Override
    public void close() {
        server.close();
        client.close();
    }
}
