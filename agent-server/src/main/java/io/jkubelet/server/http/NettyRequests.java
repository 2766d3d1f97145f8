package io.jkubelet.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLPeerUnverifiedException;

/** What a handler sees of a Netty request: our own {@link Request}, and the client's certificates. */
final class NettyRequests {
    private NettyRequests() {}

    /**
     * The request with its path, raw and decoded query, headers (lower-case names) and body copied out of Netty's
     * buffers, which are released before the handler runs.
     *
     * @throws IllegalArgumentException when the URI cannot be decoded
     */
    static Request toRequest(ChannelHandlerContext ctx, FullHttpRequest msg) {
        String uri = msg.uri();
        QueryStringDecoder decoder = new QueryStringDecoder(uri);
        String path = decoder.path();
        int q = uri.indexOf('?');
        String rawQuery = q < 0 ? "" : uri.substring(q + 1);
        Map<String, List<String>> query = new LinkedHashMap<>();
        decoder.parameters().forEach((k, v) -> query.put(k, List.copyOf(v)));
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (Map.Entry<String, String> h : msg.headers()) {
            headers.computeIfAbsent(h.getKey().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(h.getValue());
        }
        headers.replaceAll((k, v) -> List.copyOf(v));
        ByteBuf content = msg.content();
        byte[] body = new byte[content.readableBytes()];
        content.getBytes(content.readerIndex(), body);
        InetSocketAddress remote =
                ctx.channel().remoteAddress() instanceof InetSocketAddress a ? a : null;
        return new Request(
                msg.method().name(),
                path,
                rawQuery,
                Collections.unmodifiableMap(query),
                Collections.unmodifiableMap(headers),
                body,
                Map.of(),
                remote);
    }

    /** The certificate chain the client presented over TLS; empty without TLS or without a certificate. */
    static List<X509Certificate> peerCertificates(ChannelHandlerContext ctx) {
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        if (tls == null) {
            return List.of();
        }
        try {
            List<X509Certificate> chain = new ArrayList<>();
            for (Certificate c : tls.engine().getSession().getPeerCertificates()) {
                if (c instanceof X509Certificate x) {
                    chain.add(x);
                }
            }
            return List.copyOf(chain);
        } catch (SSLPeerUnverifiedException e) {
            return List.of();
        }
    }
}
