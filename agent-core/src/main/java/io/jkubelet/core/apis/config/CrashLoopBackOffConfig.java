package io.jkubelet.core.apis.config;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import org.immutables.value.Value;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * {@code crashLoopBackOff} (gate KubeletCrashLoopBackOffMax, newer than v1.30): the restart back-off cap.
 * Immutable.
 */
@Value.Immutable
@JsonDeserialize(as = ImmutableCrashLoopBackOffConfig.class)
public abstract class CrashLoopBackOffConfig {

    @JsonProperty("maxContainerRestartPeriod") @JsonInclude(NON_NULL)
    public abstract @Nullable Duration maxContainerRestartPeriod();

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder extends ImmutableCrashLoopBackOffConfig.Builder {
    }
}
