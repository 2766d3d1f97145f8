package io.jkubelet.core.config;

import io.jkubelet.core.config.validation.PodValidator;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.reader.UnicodeReader;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Measures the annotations of a manifest's pods while reading it as a stream of tokens, before anything is built from
 * it, and refuses the manifest as validation would ({@code metadata.annotations: Too long: must have at most 262144
 * bytes}). Why: decoding builds the document three times over (YAML nodes, a JSON tree, the pod) at about a hundred
 * times its size, so a manifest of 1.4 MiB of annotations, under the size limit and refused in the end, made the
 * agent's memory grow by 150 MiB; streamed, it costs nothing that stays. The pods are the document itself or the
 * items of a PodList. Malformed input, aliases and annotations that are not strings are left to the decoder.
 */
final class AnnotationBudget {
    private static final long LIMIT = PodValidator.TOTAL_ANNOTATION_SIZE_LIMIT;

    /** Where a collection being read sits: only a pod's metadata and its annotations matter. */
    private enum Place { ROOT, ITEMS, POD, METADATA, ANNOTATIONS, ELSEWHERE }

    /** One open mapping or sequence, and for a mapping the key whose value comes next. */
    private static final class Frame {
        final Place place;
        final boolean mapping;
        final int index;
        String key;
        int items;

        Frame(Place place, boolean mapping, int index) {
            this.place = place;
            this.mapping = mapping;
            this.index = index;
        }
    }

    /** The annotations being summed, and the pod's index in a list (-1 for a single pod). */
    private long bytes;
    private int podIndex = -1;
    private final Deque<Frame> open = new ArrayDeque<>();

    private AnnotationBudget() {
    }

    /** The error of the first pod whose annotations exceed the limit, if any. */
    static Optional<String> exceeded(byte[] data, boolean json) {
        AnnotationBudget budget = new AnnotationBudget();
        try {
            return json ? budget.readJson(data) : budget.readYaml(data);
        } catch (JacksonException | YAMLException e) {
            return Optional.empty();
        }
    }

    private Optional<String> readJson(byte[] data) {
        try (JsonParser parser = PodCodec.mapper().createParser(data)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                Optional<String> error = switch (token) {
                    case START_OBJECT -> opened(true);
                    case START_ARRAY -> opened(false);
                    case END_OBJECT, END_ARRAY -> closed();
                    case PROPERTY_NAME -> key(parser.currentName());
                    case VALUE_STRING -> value(parser.getString());
                    default -> value(null);
                };
                if (error.isPresent()) {
                    return error;
                }
            }
        }
        return Optional.empty();
    }

    private Optional<String> readYaml(byte[] data) {
        for (Event event : PodCodec.yaml().parse(new UnicodeReader(new ByteArrayInputStream(data)))) {
            Optional<String> error = switch (event.getEventId()) {
                case MappingStart -> opened(true);
                case SequenceStart -> opened(false);
                case MappingEnd, SequenceEnd -> closed();
                case Scalar -> scalar(((ScalarEvent) event).getValue());
                case Alias -> value(null);
                case DocumentEnd -> Optional.of("");
                default -> Optional.empty();
            };
            if (error.isPresent()) {
                // Only the first document is decoded.
                return error.filter(e -> !e.isEmpty());
            }
        }
        return Optional.empty();
    }

    /** A YAML scalar is a mapping's key or a value, by its turn. */
    private Optional<String> scalar(String text) {
        Frame top = open.peek();
        return top != null && top.mapping && top.key == null ? key(text) : value(text);
    }

    private Optional<String> opened(boolean mapping) {
        Frame parent = open.peek();
        Place place;
        int index = -1;
        if (parent == null) {
            place = mapping ? Place.POD : Place.ELSEWHERE;
        } else if (parent.place == Place.POD && parent.key != null && parent.index < 0 && !mapping
                && parent.key.equals("items")) {
            place = Place.ITEMS;
        } else if (parent.place == Place.ITEMS && mapping) {
            place = Place.POD;
            index = parent.items;
        } else if (parent.place == Place.POD && mapping && "metadata".equals(parent.key)) {
            place = Place.METADATA;
            index = parent.index;
        } else if (parent.place == Place.METADATA && mapping && "annotations".equals(parent.key)) {
            place = Place.ANNOTATIONS;
            bytes = 0;
            podIndex = parent.index;
        } else {
            place = Place.ELSEWHERE;
        }
        open.push(new Frame(place, mapping, index));
        return Optional.empty();
    }

    /** A collection ended: it was its parent's value. */
    private Optional<String> closed() {
        open.pop();
        return value(null);
    }

    private Optional<String> key(String name) {
        Frame top = open.peek();
        if (top != null) {
            top.key = name;
            if (top.place == Place.ANNOTATIONS) {
                return add(name);
            }
        }
        return Optional.empty();
    }

    /** A value (null: a collection or a non-string) ends its mapping entry or takes its list's next index. */
    private Optional<String> value(String text) {
        Frame top = open.peek();
        if (top == null) {
            return Optional.empty();
        }
        Optional<String> error = top.place == Place.ANNOTATIONS && text != null && top.key != null
                ? add(text) : Optional.empty();
        if (top.mapping) {
            top.key = null;
        } else {
            top.items++;
        }
        return error;
    }

    private Optional<String> add(String text) {
        bytes += text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes <= LIMIT) {
            return Optional.empty();
        }
        String path = (podIndex >= 0 ? "items[" + podIndex + "]." : "") + "metadata.annotations";
        return Optional.of(path + ": Too long: must have at most " + LIMIT + " bytes");
    }
}
