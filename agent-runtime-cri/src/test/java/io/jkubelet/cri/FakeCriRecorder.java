package io.jkubelet.cri;

import com.google.protobuf.Message;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What the fake CRI runtime was asked, as it received it (the request and the deadline the call came with), and the
 * errors a test has it give, as upstream's {@code FakeRuntimeService} keeps {@code Called} and {@code Errors}. Both
 * fake services answer through {@link #answer}, one call at a time.
 */
final class FakeCriRecorder {

    /** One call as the runtime received it; {@code deadline} is null when the caller set none. */
    record Call(String method, Message request, Deadline deadline) {
        /** How long the caller gave the call, as the runtime saw it on arrival. */
        long millisLeft() {
            return deadline.timeRemaining(TimeUnit.MILLISECONDS);
        }
    }

    private final List<Call> calls = new ArrayList<>();
    private final Map<String, Queue<Status>> errors = new HashMap<>();

    /** The next call of {@code method} (the CRI's name: {@code "ContainerStatus"}) fails with {@code status}. */
    synchronized void inject(String method, Status status) {
        errors.computeIfAbsent(method, m -> new ArrayDeque<>()).add(status);
    }

    /**
     * Records the call with the deadline of the server's {@link Context}, then fails it with an injected error, or
     * with the {@link StatusRuntimeException} {@code body} throws (a NotFound), or answers what {@code body} gives.
     */
    synchronized <T> void answer(String method, Message request, StreamObserver<T> out, Supplier<T> body) {
        calls.add(new Call(method, request, Context.current().getDeadline()));
        Queue<Status> injected = errors.get(method);
        if (injected != null && !injected.isEmpty()) {
            out.onError(injected.remove().asRuntimeException());
            return;
        }
        T response;
        try {
            response = body.get();
        } catch (StatusRuntimeException e) {
            out.onError(e);
            return;
        }
        out.onNext(response);
        out.onCompleted();
    }

    /** The CRI methods called, in order. */
    synchronized List<String> methods() {
        return calls.stream().map(Call::method).toList();
    }

    /** Every call, in order. */
    synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    synchronized List<Call> calls(String method) {
        return calls.stream().filter(c -> c.method().equals(method)).toList();
    }

    /** The last call of {@code method}; fails the test when there was none. */
    synchronized Call last(String method) {
        List<Call> of = calls(method);
        if (of.isEmpty()) {
            throw new AssertionError("the runtime received no " + method + "; it received " + methods());
        }
        return of.getLast();
    }

    /** The last request of {@code method}, of the type the CRI gives it. */
    <R extends Message> R request(String method, Class<R> type) {
        return type.cast(last(method).request());
    }

    synchronized void clear() {
        calls.clear();
    }

    static StatusRuntimeException notFound(String what) {
        return Status.NOT_FOUND.withDescription(what + " not found").asRuntimeException();
    }
}
