package io.jkubelet.server.http;

import java.nio.charset.StandardCharsets;

/** The answers Go's {@code net/http} writes itself, before or instead of any handler. */
final class GoAnswers {
    private GoAnswers() {}

    /** Go's ServeMux redirect to a subtree root: 301, and a small HTML body for GET. */
    static Response redirect(Request request, String location) {
        String target = request.rawQuery().isEmpty() ? location : location + "?" + request.rawQuery();
        byte[] body =
                request.method().equals("GET")
                        ? ("<a href=\"" + target + "\">Moved Permanently</a>.\n\n").getBytes(StandardCharsets.UTF_8)
                        : new byte[0];
        Response response = Response.of(301, request.method().equals("GET") ? "text/html; charset=utf-8" : null, body);
        return response.withHeader("Location", target);
    }

    /** A plain-text error written by the server itself (malformed requests, missing Host), not by http.Error. */
    static Response plainError(int status, String text) {
        return Response.text(status, text);
    }
}
