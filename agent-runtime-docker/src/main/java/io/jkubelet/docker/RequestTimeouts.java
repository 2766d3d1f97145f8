package io.jkubelet.docker;

import com.github.dockerjava.transport.DockerHttpClient;
import io.jkubelet.docker.engine.Durations;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The short calls' HTTP client, whose socket gives up after {@code runtimeRequestTimeout} without an answer (upstream
 * bounds every CRI call but the long-running ones by it), saying so: a bare "Read timed out" names neither the call
 * nor the setting that ended it.
 */
final class RequestTimeouts implements DockerHttpClient {
    private final DockerHttpClient delegate;
    private final Duration timeout;

    /** @param delegate a client whose response timeout is {@code timeout} */
    RequestTimeouts(DockerHttpClient delegate, Duration timeout) {
        this.delegate = delegate;
        this.timeout = timeout;
    }

    @Override
    public Response execute(Request request) {
        Response response;
        try {
            response = delegate.execute(request);
        } catch (RuntimeException e) {
            if (timedOut(e)) {
                throw new DockerTimeoutException(message(request), e);
            }
            throw e;
        }
        return new TimedResponse(response, request);
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }

    /** What a call that timed out says: the request, the limit and the setting. */
    String message(Request request) {
        String path = request.path();
        int query = path.indexOf('?');
        return "Docker did not answer " + request.method() + " " + (query < 0 ? path : path.substring(0, query))
                + " within " + text(timeout) + " (runtimeRequestTimeout)";
    }

    private static boolean timedOut(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** A duration as the kubelet's flags print it: {@code 2m0s}, {@code 30s}, {@code 500ms}. */
    static String text(Duration d) {
        return Durations.text(d);
    }

    /** A failed call's exception when the answer did not come within the timeout. */
    static final class DockerTimeoutException extends RuntimeException {
        DockerTimeoutException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The answer, whose body may stop coming just as well. */
    private final class TimedResponse implements Response {
        private final Response response;
        private final Request request;

        TimedResponse(Response response, Request request) {
            this.response = response;
            this.request = request;
        }

        @Override
        public int getStatusCode() {
            return response.getStatusCode();
        }

        @Override
        public Map<String, List<String>> getHeaders() {
            return response.getHeaders();
        }

        @Override
        public InputStream getBody() {
            return new FilterInputStream(response.getBody()) {
                @Override
                public int read() throws IOException {
                    try {
                        return super.read();
                    } catch (SocketTimeoutException e) {
                        throw timeout(e);
                    }
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    try {
                        return super.read(b, off, len);
                    } catch (SocketTimeoutException e) {
                        throw timeout(e);
                    }
                }
            };
        }

        private SocketTimeoutException timeout(SocketTimeoutException cause) {
            SocketTimeoutException e = new SocketTimeoutException(message(request));
            e.initCause(cause);
            return e;
        }

        @Override
        public void close() {
            response.close();
        }
    }
}
