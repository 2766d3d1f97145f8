package io.jkubelet.docker.engine;

import java.io.IOException;

/** The daemon's answer is not HTTP/1.1 as it should be: a malformed status line, header or chunk. */
final class EngineProtocolException extends IOException {
    EngineProtocolException(String message) {
        super(message);
    }
}
