package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;

/** {@code crashLoopBackOff} (gate KubeletCrashLoopBackOffMax, newer than v1.30): the restart back-off cap. */
public final class CrashLoopBackOffConfig {

    @JsonProperty("maxContainerRestartPeriod")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Duration maxContainerRestartPeriod;

    public Duration maxContainerRestartPeriod() {
        return maxContainerRestartPeriod;
    }

    public CrashLoopBackOffConfig maxContainerRestartPeriod(Duration value) {
        this.maxContainerRestartPeriod = value;
        return this;
    }
}
