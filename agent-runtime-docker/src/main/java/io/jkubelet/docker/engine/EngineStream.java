package io.jkubelet.docker.engine;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.MappingIterator;

/**
 * A stream of JSON messages the daemon sends as they happen ({@code /events}, {@code /images/create}), read on the
 * caller's thread. {@link #close()}, from any thread, stops it: a {@link #next()} waiting then ends with an
 * {@link EngineCallException.Unreachable}.
 */
public final class EngineStream<T> implements AutoCloseable {
    private final EngineResponse response;
    private final Class<T> type;
    private final String what;
    /** Made at the first read: Jackson reads the first bytes as it makes it, and none may have come yet. */
    private MappingIterator<T> values;
    private volatile boolean closed;

    EngineStream(EngineResponse response, Class<T> type, String what) {
        this.response = response;
        this.type = type;
        this.what = what;
    }

    /** The next message, waiting for it; null when the daemon ended the stream. */
    public T next() {
        if (closed) {
            throw new EngineCallException.Unreachable(what, "the stream was closed", null);
        }
        try {
            if (values == null) {
                values = EngineJson.readValues(response.body(), type);
            }
            return values.hasNextValue() ? values.nextValue() : null;
        } catch (JacksonException e) {
            throw new EngineCallException.Unreachable(what, closed ? "the stream was closed"
                    : "the stream broke: " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public void close() {
        closed = true;
        response.close();
    }
}
