package io.jkubelet.cmd.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The Docker engine's socket behind a relay at {@code socket} that holds its first connection for {@code delay}
 * before relaying it: an engine slow to answer when the agent starts. The file is named {@code docker.sock} by the
 * caller, so that the agent takes it for Docker.
 */
final class SlowEngineSocket implements AutoCloseable {
    private final ServerSocketChannel server;

    SlowEngineSocket(Path socket, Path engine, Duration delay) throws IOException {
        Files.deleteIfExists(socket);
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Thread.ofVirtual().name("slow-engine-accept").start(() -> {
            boolean first = true;
            try {
                while (true) {
                    SocketChannel client = server.accept();
                    boolean hold = first;
                    first = false;
                    Thread.ofVirtual().start(() -> relay(client, engine, hold ? delay : Duration.ZERO));
                }
            } catch (IOException closed) {
                // the test is over
            }
        });
    }

    private static void relay(SocketChannel client, Path engine, Duration delay) {
        try (client; SocketChannel upstream = SocketChannel.open(UnixDomainSocketAddress.of(engine))) {
            Thread.sleep(delay);
            Thread back = Thread.ofVirtual().start(() -> copy(Channels.newInputStream(upstream), Channels.newOutputStream(client), client));
            copy(Channels.newInputStream(client), Channels.newOutputStream(upstream), upstream);
            back.join();
        } catch (IOException | InterruptedException e) {
            // a side closed
        }
    }

    private static void copy(InputStream from, OutputStream to, SocketChannel toChannel) {
        try {
            from.transferTo(to);
            toChannel.shutdownOutput();
        } catch (IOException e) {
            // a side closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
