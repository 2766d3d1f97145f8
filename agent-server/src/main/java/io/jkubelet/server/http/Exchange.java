package io.jkubelet.server.http;

import io.netty.handler.codec.http.HttpVersion;

/** What the response writer needs to know about the request it answers. */
record Exchange(String method, String path, HttpVersion version, boolean keepAlive) {}
