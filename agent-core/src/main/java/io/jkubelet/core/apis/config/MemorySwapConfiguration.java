package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code memorySwap}: swap available to workloads ({@code ""}, {@code NoSwap} or {@code LimitedSwap}). */
public final class MemorySwapConfiguration {

    @JsonProperty("swapBehavior")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String swapBehavior = "";

    public String swapBehavior() {
        return swapBehavior;
    }

    public MemorySwapConfiguration swapBehavior(String value) {
        this.swapBehavior = value;
        return this;
    }
}
