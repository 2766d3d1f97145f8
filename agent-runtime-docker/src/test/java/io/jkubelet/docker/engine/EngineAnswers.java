package io.jkubelet.docker.engine;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

/** Docker's answers as the engine client reads them, for tests of the adapter that start from Docker's answers. */
public final class EngineAnswers {
    private EngineAnswers() {}

    /** {@code json} (an answer as Docker writes it) read as the client reads it into {@code type}. */
    public static <T> T read(String json, Class<T> type) {
        return EngineJson.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), type);
    }

    /** The exception the client throws when Docker answers {@code status} with {@code message} to {@code call}. */
    public static EngineCallException error(String call, int status, String message) {
        return EngineCallException.of(call, status, message);
    }
}
