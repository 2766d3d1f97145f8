package io.jkubelet.core.apis.config;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.immutables.value.Value;
import tools.jackson.databind.annotation.JsonDeserialize;

/** {@code authentication.x509}: client-certificate authentication. Immutable. */
@Value.Immutable
@JsonDeserialize(as = ImmutableKubeletX509Authentication.class)
public abstract class KubeletX509Authentication {

    /** PEM bundle of the CAs whose client certificates are accepted; CN = user, O = groups. */
    @JsonProperty("clientCAFile") @JsonInclude(NON_EMPTY) @Value.Default
    public String clientCAFile() { return ""; }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder extends ImmutableKubeletX509Authentication.Builder {
    }
}
