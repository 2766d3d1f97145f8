package io.jkubelet.cri;

import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * The fake CRI runtime ({@link FakeRuntimeService}, {@link FakeImageService}) on gRPC's in-process transport, and the
 * CRI adapter over a channel to it: the adapter's requests, deadlines and error mapping go through real gRPC, without
 * a socket or a runtime, as upstream tests its CRI client against {@code cri/remote/fake}. Both ends run calls on the
 * caller's thread, so a test sees each call done when the adapter returns.
 */
final class FakeCriServer implements AutoCloseable {
    /** The endpoint the adapter believes it talks to: its errors name it. */
    static final CriEndpoint ENDPOINT = CriEndpoint.parse("unix:///run/fake-cri/runtime.sock");

    final FakeCriRecorder recorder = new FakeCriRecorder();
    final FakeImageService images = new FakeImageService(recorder);
    final FakeRuntimeService runtime = new FakeRuntimeService(recorder, images);
    private final String name = InProcessServerBuilder.generateName();
    private final Server server;

    FakeCriServer() {
        try {
            server = InProcessServerBuilder.forName(name).directExecutor()
                    .addService(runtime).addService(images).build().start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A channel to this server that the adapter reports as {@code endpoint}. */
    CriChannel channel(CriEndpoint endpoint) {
        return new CriChannel(endpoint, InProcessChannelBuilder.forName(name).directExecutor().build());
    }

    /** The adapter on this runtime, with {@code requestTimeout} as {@code runtimeRequestTimeout}. */
    CriRuntime adapter(Duration requestTimeout) {
        CriChannel channel = channel(ENDPOINT);
        return new CriRuntime(new CriCalls(channel, channel, requestTimeout));
    }

    /** The adapter reading usage at {@code clock}'s time under {@code proc} and the cgroups at {@code cgroupRoot}. */
    CriRuntime adapter(Duration requestTimeout, Clock clock, Path proc, Path cgroupRoot) {
        CriChannel channel = channel(ENDPOINT);
        return new CriRuntime(new CriCalls(channel, channel, requestTimeout), clock, proc, cgroupRoot);
    }

    @Override
    public void close() {
        server.shutdownNow();
    }
}
