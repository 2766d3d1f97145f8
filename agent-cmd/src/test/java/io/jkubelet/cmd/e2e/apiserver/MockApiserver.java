package io.jkubelet.cmd.e2e.apiserver;

import io.fabric8.mockwebserver.MockWebServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in kube-apiserver as a process of its own, for end-to-end tests and the apiserver load benchmark:
 * fabric8's mock server in CRUD mode behind {@link ApiserverDispatcher}, on plain HTTP on loopback, writing a
 * kubeconfig that the agent ({@code --kubeconfig}) and kubectl ({@code --kubeconfig}) both use.
 *
 * <p>What it stores survives a restart ({@code --state}: saved on SIGTERM, loaded at start), as etcd keeps a real
 * apiserver's objects: a restarted apiserver must show the kubelet the pods it had, or the kubelet would kill them.
 *
 * <pre>
 * java -cp ... io.jkubelet.cmd.e2e.apiserver.MockApiserver --port 0 --kubeconfig /tmp/kubeconfig [--state /tmp/state.json]
 * </pre>
 * Prints {@code mock apiserver listening on http://127.0.0.1:<port>} once it serves.
 */
public final class MockApiserver {
    private MockApiserver() {}

    public static void main(String[] args) throws Exception {
        int port = 0;
        Path kubeconfig = null;
        Path state = null;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--port" -> { port = Integer.parseInt(required(args[i], value)); i++; }
                case "--kubeconfig" -> { kubeconfig = Path.of(required(args[i], value)); i++; }
                case "--state" -> { state = Path.of(required(args[i], value)); i++; }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (usage: --port N --kubeconfig FILE [--state FILE])");
            }
        }
        if (kubeconfig == null) {
            throw new IllegalArgumentException("--kubeconfig FILE is required: the mock writes the kubeconfig for the agent and kubectl there");
        }
        // MockWebServer logs every request at INFO: thousands a minute under load.
        java.util.logging.Logger.getLogger("io.fabric8.mockwebserver").setLevel(java.util.logging.Level.WARNING);
        MockWebServer server = new MockWebServer();
        // The address is known only once bound; discovery names it, so the dispatcher reads it lazily.
        String[] address = {"127.0.0.1"};
        ApiserverDispatcher dispatcher = new ApiserverDispatcher("127.0.0.1", Clock.systemUTC());
        if (state != null && Files.isRegularFile(state)) {
            int n = 0;
            for (JsonNode object : ApiserverDispatcher.JSON.readTree(Files.readString(state))) {
                dispatcher.restore(ApiserverDispatcher.JSON.writeValueAsString(object));
                n++;
            }
            System.out.println("restored " + n + " objects from " + state);
        }
        server.setDispatcher(dispatcher);
        server.start(InetAddress.getByName(address[0]), port);
        String url = "http://127.0.0.1:" + server.getPort();
        writeKubeconfig(kubeconfig, url);
        Path stateFile = state;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (stateFile != null) {
                try {
                    save(stateFile, dispatcher.storedObjects());
                } catch (IOException e) {
                    System.err.println("cannot save state to " + stateFile + ": " + e);
                }
            }
            server.shutdown();
        }, "mock-apiserver-shutdown"));
        // MockWebServer keeps every request for takeRequest(): drop them, or a long benchmark fills the heap.
        Thread drain = new Thread(() -> {
            try {
                while (true) {
                    server.takeRequest(1, TimeUnit.MINUTES);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "mock-apiserver-drain");
        drain.setDaemon(true);
        drain.start();
        System.out.println("mock apiserver listening on " + url);
        System.out.flush();
        Thread.currentThread().join();
    }

    private static String required(String flag, String value) {
        if (value == null) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return value;
    }

    private static void save(Path state, List<String> objects) throws IOException {
        ArrayNode all = ApiserverDispatcher.JSON.createArrayNode();
        for (String o : objects) {
            all.add(ApiserverDispatcher.JSON.readTree(o));
        }
        Path tmp = state.resolveSibling(state.getFileName() + ".tmp");
        Files.writeString(tmp, ApiserverDispatcher.JSON.writeValueAsString(all));
        Files.move(tmp, state, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static void writeKubeconfig(Path file, String url) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: mock
                  cluster:
                    server: %s
                contexts:
                - name: mock
                  context:
                    cluster: mock
                    user: node
                    namespace: default
                current-context: mock
                users:
                - name: node
                  user:
                    token: mock-node-token
                """.formatted(url));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
