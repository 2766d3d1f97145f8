package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** One {@code shutdownGracePeriodByPodPriority} entry: pods at or above a priority get this grace period. */
public final class ShutdownGracePeriodByPodPriority {

    @JsonProperty("priority")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private int priority;

    @JsonProperty("shutdownGracePeriodSeconds")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private long shutdownGracePeriodSeconds;

    public int priority() {
        return priority;
    }

    public long shutdownGracePeriodSeconds() {
        return shutdownGracePeriodSeconds;
    }
}
