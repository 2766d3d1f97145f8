package io.jkubelet.docker;

import com.github.dockerjava.api.async.ResultCallback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/**
 * A stream callback that keeps a failure for its caller instead of logging it: docker-java's template
 * would log every stream error at ERROR and rethrow it from {@code awaitCompletion}, while the adapter
 * reports failures itself, with the object and call they belong to.
 */
abstract class QuietCallback<T> extends ResultCallback.Adapter<T> {
    private static final Logger log = LoggerFactory.getLogger(QuietCallback.class);

    /** The stream's failure, or null; read by the caller once the stream ended. */
    volatile Throwable failure;

    @Override
    public void onError(Throwable throwable) {
        failure = throwable;
        try {
            close();
        } catch (IOException e) {
            log.debug("Closing a Docker stream failed", e);
        }
    }

    @Override
    protected void throwFirstError() {
        // The caller reads {@link #failure}; awaitCompletion must not throw it.
    }
}
