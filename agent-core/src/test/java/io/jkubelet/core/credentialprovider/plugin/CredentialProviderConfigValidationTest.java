package io.jkubelet.core.credentialprovider.plugin;

import io.jkubelet.core.credentialprovider.plugin.CredentialProviderConfig.CredentialProvider;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Upstream's {@code Test_validateCredentialProviderConfig} cases, with upstream's exact messages. */
class CredentialProviderConfigValidationTest {
    private static final String V1ALPHA1 = "credentialprovider.kubelet.k8s.io/v1alpha1";

    private static CredentialProvider provider(String name, List<String> matchImages, Duration cache, String apiVersion) {
        return new CredentialProvider(name, matchImages, cache, apiVersion, List.of(), List.of());
    }

    private static String errors(CredentialProvider... providers) {
        return CredentialProviderConfigValidation.aggregate(
                CredentialProviderConfigValidation.validate(new CredentialProviderConfig(List.of(providers))));
    }

    @Test
    void aValidConfigHasNoError() {
        assertThat(CredentialProviderConfigValidation.validate(new CredentialProviderConfig(List.of(
                provider("foobar", List.of("foobar.registry.io"), Duration.ofMinutes(1), V1ALPHA1),
                provider("ecr", List.of("*.dkr.ecr.*.amazonaws.com", "r.io:5000/team"), Duration.ZERO,
                        "credentialprovider.kubelet.k8s.io/v1"))))).isEmpty();
    }

    @Test
    void eachRuleWithUpstreamsWords() {
        Duration minute = Duration.ofMinutes(1);
        List<String> images = List.of("foobar.registry.io");
        assertThat(errors()).isEqualTo("providers: Required value: at least 1 item in plugins is required");
        assertThat(errors(provider("foobar", List.of(), minute, V1ALPHA1)))
                .isEqualTo("providers.matchImages: Required value: at least 1 item in matchImages is required");
        assertThat(errors(provider("foobar", images, null, V1ALPHA1)))
                .isEqualTo("providers.defaultCacheDuration: Required value: defaultCacheDuration is required");
        assertThat(errors(provider("foo/../bar", images, minute, V1ALPHA1)))
                .isEqualTo("providers.name: Invalid value: \"foo/../bar\": provider name cannot contain '/'");
        assertThat(errors(provider(".", images, minute, V1ALPHA1)))
                .isEqualTo("providers.name: Invalid value: \".\": provider name cannot be '.'");
        assertThat(errors(provider("..", images, minute, V1ALPHA1)))
                .isEqualTo("providers.name: Invalid value: \"..\": provider name cannot be '..'");
        assertThat(errors(provider("foo bar", images, minute, V1ALPHA1)))
                .isEqualTo("providers.name: Invalid value: \"foo bar\": provider name cannot contain spaces");
        assertThat(errors(provider("foobar", images, minute, "")))
                .isEqualTo("providers.apiVersion: Required value: apiVersion is required");
        assertThat(errors(provider("foobar", images, minute, "credentialprovider.kubelet.k8s.io/v1alpha0")))
                .isEqualTo("providers.apiVersion: Unsupported value: \"credentialprovider.kubelet.k8s.io/v1alpha0\":"
                        + " supported values: \"credentialprovider.kubelet.k8s.io/v1\","
                        + " \"credentialprovider.kubelet.k8s.io/v1alpha1\", \"credentialprovider.kubelet.k8s.io/v1beta1\"");
        assertThat(errors(provider("foobar", images, Duration.ofMinutes(-1), V1ALPHA1)))
                .isEqualTo("providers.defaultCacheDuration: Invalid value: -1m0s:"
                        + " defaultCacheDuration must be greater than or equal to 0");
        assertThat(errors(provider("foobar", List.of("%invalid%"), minute, V1ALPHA1)))
                .isEqualTo("providers.matchImages: Invalid value: \"%invalid%\": match image is invalid:"
                        + " parse \"https://%invalid%\": invalid URL escape \"%in\"");
        assertThat(errors(provider("a", images, minute, V1ALPHA1), provider("a", images, minute, V1ALPHA1)))
                .isEqualTo("providers.name: Duplicate value: \"a\"");
    }

    @Test
    void severalErrorsAreListedOnceEachInBrackets() {
        CredentialProvider bad = provider("a b", List.of(), null, "");
        assertThat(errors(bad, bad)).isEqualTo("[providers.name: Invalid value: \"a b\": provider name cannot contain"
                + " spaces, providers.apiVersion: Required value: apiVersion is required, providers.matchImages:"
                + " Required value: at least 1 item in matchImages is required, providers.defaultCacheDuration:"
                + " Required value: defaultCacheDuration is required, providers.name: Duplicate value: \"a b\"]");
    }
}
