package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.annotation.JsonDeserialize;

/** One {@code reservedMemory} entry: memory reserved on a NUMA node, per memory type. */
public final class MemoryReservation {

    @JsonProperty("numaNode")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private int numaNode;

    /** Resource name ({@code memory}, {@code hugepages-2Mi}) to quantity. */
    @JsonProperty("limits")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonDeserialize(contentUsing = GoJsonValues.QuantityStringDeserializer.class)
    private Map<String, String> limits = new LinkedHashMap<>();

    /** For the decoder. */
    public MemoryReservation() {
    }

    /** What {@code --reserved-memory} gives for one NUMA node. */
    public MemoryReservation(int numaNode, Map<String, String> limits) {
        this.numaNode = numaNode;
        this.limits = new LinkedHashMap<>(limits);
    }

    public int numaNode() {
        return numaNode;
    }

    /** Unmodifiable: a loaded configuration is never changed. */
    public Map<String, String> limits() {
        return Collections.unmodifiableMap(limits);
    }
}
