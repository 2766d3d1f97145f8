package io.jkubelet.core.apis.config;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.immutables.value.Value;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * {@code memorySwap}: swap available to workloads ({@code ""}, {@code NoSwap} or {@code LimitedSwap}).
 * Immutable.
 */
@Value.Immutable
@JsonDeserialize(as = ImmutableMemorySwapConfiguration.class)
public abstract class MemorySwapConfiguration {

    @JsonProperty("swapBehavior") @JsonInclude(NON_EMPTY) @Value.Default
    public String swapBehavior() { return ""; }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder extends ImmutableMemorySwapConfiguration.Builder {
    }
}
