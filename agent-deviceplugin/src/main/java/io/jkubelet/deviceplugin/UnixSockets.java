package io.jkubelet.deviceplugin;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * gRPC servers and channels on unix sockets, over Netty's epoll transport (the only Netty transport that speaks unix
 * sockets on Linux), all on one small event loop: the kubelet's local sockets carry little traffic.
 */
public final class UnixSockets {
    private static EventLoopGroup group;

    private UnixSockets() {}

    private static synchronized EventLoopGroup group() {
        if (!Epoll.isAvailable()) {
            throw new IllegalStateException("cannot serve unix sockets: Netty's epoll transport is not available here ("
                    + Epoll.unavailabilityCause() + ")");
        }
        if (group == null) {
            group = new MultiThreadIoEventLoopGroup(1, Thread.ofPlatform().name("kubelet-sockets-", 0).daemon().factory(),
                    EpollIoHandler.newFactory());
        }
        return group;
    }

    /**
     * A server on {@code socket} (an existing file there is removed first, as upstream's {@code CreateListener} does)
     * with {@code services}, started.
     */
    public static Server serve(Path socket, io.grpc.BindableService... services) throws IOException {
        Files.deleteIfExists(socket);
        NettyServerBuilder b = NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .bossEventLoopGroup(group()).workerEventLoopGroup(group())
                .channelType(EpollServerDomainSocketChannel.class);
        for (var s : services) {
            b.addService(s);
        }
        return b.build().start();
    }

    /** A channel to the server on {@code socket}; it connects on first use. */
    public static ManagedChannel channel(Path socket) {
        return NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .eventLoopGroup(group())
                .channelType(EpollDomainSocketChannel.class)
                .usePlaintext()
                // The authority of a unix socket means nothing; upstream's dialer uses this one.
                .overrideAuthority("localhost")
                .build();
    }

    /**
     * Waits until the channel is connected (grpc-go's {@code WithBlock} dial), at most {@code timeout}.
     *
     * @return false when it did not connect in time
     */
    public static boolean awaitReady(ManagedChannel channel, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            ConnectivityState state = channel.getState(true);
            if (state == ConnectivityState.READY) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || state == ConnectivityState.SHUTDOWN) {
                return false;
            }
            CountDownLatch changed = new CountDownLatch(1);
            channel.notifyWhenStateChanged(state, changed::countDown);
            changed.await(left, TimeUnit.NANOSECONDS);
        }
    }

    /** Shuts the channel down and waits a little for it. */
    public static void close(ManagedChannel channel) {
        channel.shutdownNow();
        try {
            channel.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
