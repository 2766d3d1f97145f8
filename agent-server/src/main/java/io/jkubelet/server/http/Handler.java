package io.jkubelet.server.http;

/**
 * Answers one HTTP request with one complete response.
 *
 * <p>A handler that may block (takes locks held for long, calls the container runtime, reads files)
 * must say so through {@link #mayBlock()} (most simply by wrapping it with {@link #blocking(Handler)}):
 * the server then runs it on a virtual thread instead of the Netty event loop, which must never block.
 * A handler may be called by many threads at once. An exception it throws becomes a 500 answer; the
 * connection and the server go on serving.
 */
@FunctionalInterface
public interface Handler {

    /** The response to {@code request}; never null. */
    Response handle(Request request) throws Exception;

    /** Whether this handler may block; false means it runs on the event loop and must be quick. */
    default boolean mayBlock() {
        return false;
    }

    /** {@code handler}, declared as one that may block. */
    static Handler blocking(Handler handler) {
        return new Handler() {
            @Override
            public Response handle(Request request) throws Exception {
                return handler.handle(request);
            }

            @Override
            public boolean mayBlock() {
                return true;
            }
        };
    }
}
