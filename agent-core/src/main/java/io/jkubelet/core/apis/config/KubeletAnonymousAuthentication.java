package io.jkubelet.core.apis.config;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.immutables.value.Value;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.annotation.JsonDeserialize;

/** {@code authentication.anonymous}: requests no other method rejects become {@code system:anonymous}. Immutable. */
@Value.Immutable
@JsonDeserialize(as = ImmutableKubeletAnonymousAuthentication.class)
public abstract class KubeletAnonymousAuthentication {

    @JsonProperty("enabled") @JsonInclude(NON_NULL)
    public abstract @Nullable Boolean enabled();

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder extends ImmutableKubeletAnonymousAuthentication.Builder {
    }
}
