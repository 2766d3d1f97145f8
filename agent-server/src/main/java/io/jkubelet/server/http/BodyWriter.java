package io.jkubelet.server.http;

/**
 * Produces the body of a {@linkplain Response#streaming streaming response}, such as a followed container log.
 *
 * <p>It runs once per response, on a virtual thread of its own (so it may block: read files, wait for new
 * lines), after the status and headers are on their way. What it writes to the {@link ResponseStream} goes
 * out in chunks as its buffer fills and at each {@link ResponseStream#flush()}; a write waits while the
 * client reads more slowly than the writer writes, so memory stays bounded. When the client goes away (or
 * the server shuts down) the next write or flush throws {@link ResponseStream.ClientGoneException} and
 * {@link ResponseStream#clientGone()} turns true: a writer that waits between writes checks it, so that a
 * stream nobody reads ends and frees its resources. Returning ends the body; throwing anything else cuts
 * the connection without the final chunk, so the client sees the body was incomplete. The writer need not
 * close the stream.
 */
@FunctionalInterface
public interface BodyWriter {

    void writeTo(ResponseStream out) throws Exception;
}
