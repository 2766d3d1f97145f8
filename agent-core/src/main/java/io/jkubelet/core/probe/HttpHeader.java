package io.jkubelet.core.probe;

import java.util.Objects;

/** One request header line, in the order it is sent. */
public record HttpHeader(String name, String value) {
    public HttpHeader {
        Objects.requireNonNull(name, "name");
        value = value == null ? "" : value;
    }
}
