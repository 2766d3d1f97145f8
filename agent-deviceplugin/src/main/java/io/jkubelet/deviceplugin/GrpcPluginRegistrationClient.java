package io.jkubelet.deviceplugin;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.jkubelet.core.pluginmanager.PluginRegistrationClient;
import io.jkubelet.pluginregistration.v1.PluginRegistrationApi;
import io.jkubelet.pluginregistration.v1.RegistrationGrpc;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The plugin watcher's calls on a plugin's registration socket (upstream {@code operationexecutor}'s): dialled within
 * 10 s, {@code GetInfo} within 1 s, {@code NotifyRegistrationStatus} within 5 s, as upstream's deadlines.
 */
public final class GrpcPluginRegistrationClient implements PluginRegistrationClient {
    static final Duration DIAL_TIMEOUT = Duration.ofSeconds(10);
    static final Duration GET_INFO_TIMEOUT = Duration.ofSeconds(1);
    static final Duration NOTIFY_TIMEOUT = Duration.ofSeconds(5);

    @Override
    public PluginInfo getInfo(Path socket) throws Exception {
        ManagedChannel ch = dial(socket);
        try {
            var info = RegistrationGrpc.newBlockingStub(ch).withDeadlineAfter(GET_INFO_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .getInfo(PluginRegistrationApi.InfoRequest.getDefaultInstance());
            return new PluginInfo(info.getType(), info.getName(), info.getEndpoint(), List.copyOf(info.getSupportedVersionsList()));
        } catch (StatusRuntimeException e) {
            throw new Exception(GrpcErrors.message(e), e);
        } finally {
            UnixSockets.close(ch);
        }
    }

    @Override
    public void notifyRegistrationStatus(Path socket, boolean registered, String error) throws Exception {
        ManagedChannel ch = dial(socket);
        try {
            RegistrationGrpc.newBlockingStub(ch).withDeadlineAfter(NOTIFY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .notifyRegistrationStatus(PluginRegistrationApi.RegistrationStatus.newBuilder()
                            .setPluginRegistered(registered).setError(error).build());
        } catch (StatusRuntimeException e) {
            throw new Exception(GrpcErrors.message(e), e);
        } finally {
            UnixSockets.close(ch);
        }
    }

    private static ManagedChannel dial(Path socket) throws Exception {
        ManagedChannel ch = UnixSockets.channel(socket);
        if (!UnixSockets.awaitReady(ch, DIAL_TIMEOUT)) {
            UnixSockets.close(ch);
            throw new Exception("dial failed at socket " + socket + ", err: context deadline exceeded");
        }
        return ch;
    }
}
