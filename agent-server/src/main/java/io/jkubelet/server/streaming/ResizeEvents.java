package io.jkubelet.server.streaming;

import io.jkubelet.core.runtime.TerminalSize;
import io.jkubelet.core.runtime.TerminalSizeQueue;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Iterator;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The resize channel (4): a sequence of JSON objects {@code {"Width":80,"Height":24}}, decoded as Go's
 * {@code json.Decoder} does (field names in any case, unknown fields ignored). As upstream, the first
 * object that cannot be decoded ends the resize events; the session goes on.
 */
final class ResizeEvents implements TerminalSizeQueue {

    private static final Logger log = LoggerFactory.getLogger(ResizeEvents.class);
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final InputStream in;
    private MappingIterator<JsonNode> objects;
    private boolean ended;

    ResizeEvents(InputStream in) {
        this.in = in;
    }

    @Override
    public synchronized TerminalSize next() throws InterruptedException {
        if (ended) {
            return null;
        }
        try {
            if (objects == null) {
                objects = JSON.readerFor(JsonNode.class).readValues(in);
            }
            if (!objects.hasNextValue()) {
                ended = true;
                return null;
            }
            return size(objects.nextValue());
        } catch (RuntimeException e) {
            // Jackson 3 hands an I/O failure on wrapped in an unchecked exception.
            if (e.getCause() instanceof InterruptedIOException) {
                ended = true;
                throw new InterruptedException("streaming session ended");
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("streaming session ended");
            }
            log.debug("ignoring further resize events: {}", e.getMessage());
            ended = true;
            return null;
        }
    }

    private static TerminalSize size(JsonNode node) {
        int width = 0;
        int height = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (field.getKey().equalsIgnoreCase("width")) {
                width = uint16(field.getValue(), "Width");
            } else if (field.getKey().equalsIgnoreCase("height")) {
                height = uint16(field.getValue(), "Height");
            }
        }
        return new TerminalSize(width, height);
    }

    private static int uint16(JsonNode value, String name) {
        if (!value.canConvertToInt() || !value.isIntegralNumber() || value.intValue() < 0 || value.intValue() > 0xFFFF) {
            throw new IllegalArgumentException("resize event: " + name + " " + value + " is not a number from 0 to 65535");
        }
        return value.intValue();
    }
}
