package io.jkubelet.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** The status line and headers of an answer as Go's {@code net/http} writes them: Date, length or chunks, Connection. */
final class ResponseHeads {
    /** Go's {@code http.TimeFormat}. */
    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private ResponseHeads() {}

    /** A whole answer with its Content-Length (no body for HEAD, but the length it would have). */
    static FullHttpResponse full(Exchange exchange, Response response, boolean keepAlive, Instant now) {
        boolean head = exchange.method().equals("HEAD");
        ByteBuf content = head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(response.bodyUnsafe());
        FullHttpResponse out =
                new DefaultFullHttpResponse(
                        exchange.version().equals(HttpVersion.HTTP_1_0) ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1,
                        HttpResponseStatus.valueOf(response.status()),
                        content);
        response.headers().forEach((name, values) -> out.headers().add(name, values));
        out.headers().set(HttpHeaderNames.DATE, HTTP_DATE.format(now));
        out.headers().set(HttpHeaderNames.CONTENT_LENGTH, response.bodyLength());
        HttpUtil.setKeepAlive(out, keepAlive);
        return out;
    }

    /**
     * The head of a streamed answer, and how its body ends.
     *
     * @param keepAlive the connection may serve another request once the body is out
     * @param closeDelimited HTTP/1.0 without a length: closing the connection is what ends the body
     */
    record Streamed(HttpResponse head, boolean keepAlive, boolean closeDelimited) {}

    /**
     * A streamed answer's head. A writer that knows its length (a file) sends Content-Length and exactly that many
     * bytes, and the connection may stay open even for HTTP/1.0; otherwise HTTP/1.1 chunks (as Go chunks a response
     * that has no Content-Length) and HTTP/1.0, which cannot chunk, ends the body by closing (Go then drops the
     * Transfer-Encoding header and sends no Connection header).
     *
     * @param mayKeepAlive whether the server would keep the connection open (not closing, not shutting down)
     */
    static Streamed streamed(Exchange exchange, Response response, boolean mayKeepAlive, Instant now) {
        boolean http10 = exchange.version().equals(HttpVersion.HTTP_1_0);
        HttpResponse out =
                new DefaultHttpResponse(http10 ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(response.status()));
        response.headers().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Transfer-Encoding")) {
                out.headers().add(name, values);
            }
        });
        out.headers().set(HttpHeaderNames.DATE, HTTP_DATE.format(now));
        boolean fixedLength = out.headers().contains(HttpHeaderNames.CONTENT_LENGTH);
        boolean keepAlive = exchange.keepAlive() && mayKeepAlive && (fixedLength || !http10);
        if (!fixedLength && !http10) {
            HttpUtil.setTransferEncodingChunked(out, true);
        }
        HttpUtil.setKeepAlive(out, keepAlive);
        boolean closeDelimited = http10 && !fixedLength;
        if (closeDelimited) {
            out.headers().remove(HttpHeaderNames.CONNECTION);
        }
        return new Streamed(out, keepAlive, closeDelimited);
    }
}
