package io.jkubelet.core.credentialprovider.plugin;

import io.jkubelet.core.apis.config.GoDuration;
import io.jkubelet.core.config.validation.FieldError;
import io.jkubelet.core.config.validation.FieldPath;
import io.jkubelet.core.credentialprovider.SchemelessUrl;
import io.jkubelet.core.credentialprovider.plugin.CredentialProviderConfig.CredentialProvider;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Upstream's {@code validateCredentialProviderConfig} (v1.30), with its field paths and words: at least one provider;
 * names without {@code /} or spaces, not {@code .} or {@code ..}, not twice; an {@code apiVersion} of
 * {@code credentialprovider.kubelet.k8s.io}; at least one {@code matchImages}, each a URL; a
 * {@code defaultCacheDuration} of zero or more. Upstream checks nothing of {@code args} and {@code env}; neither do we.
 * The field paths carry no index, as upstream's: the value in each error tells the provider.
 */
public final class CredentialProviderConfigValidation {
    private CredentialProviderConfigValidation() {}

    public static List<FieldError> validate(CredentialProviderConfig config) {
        List<FieldError> errors = new ArrayList<>();
        FieldPath providers = FieldPath.root("providers");
        if (config.providers().isEmpty()) {
            errors.add(FieldError.required(providers, "at least 1 item in plugins is required"));
        }
        Set<String> seen = new HashSet<>();
        for (CredentialProvider provider : config.providers()) {
            FieldPath name = providers.child("name");
            if (provider.name().contains("/")) {
                errors.add(FieldError.invalid(name, provider.name(), "provider name cannot contain '/'"));
            }
            if (provider.name().contains(" ")) {
                errors.add(FieldError.invalid(name, provider.name(), "provider name cannot contain spaces"));
            }
            if (provider.name().equals(".")) {
                errors.add(FieldError.invalid(name, provider.name(), "provider name cannot be '.'"));
            }
            if (provider.name().equals("..")) {
                errors.add(FieldError.invalid(name, provider.name(), "provider name cannot be '..'"));
            }
            if (!seen.add(provider.name())) {
                errors.add(FieldError.duplicate(name, provider.name()));
            }
            FieldPath apiVersion = providers.child("apiVersion");
            if (provider.apiVersion().isEmpty()) {
                errors.add(FieldError.required(apiVersion, "apiVersion is required"));
            } else if (!CredentialProviderApi.VERSIONS.contains(provider.apiVersion())) {
                errors.add(FieldError.notSupported(apiVersion, provider.apiVersion(), CredentialProviderApi.VERSIONS));
            }
            if (provider.matchImages().isEmpty()) {
                errors.add(FieldError.required(providers.child("matchImages"), "at least 1 item in matchImages is required"));
            }
            for (String matchImage : provider.matchImages()) {
                try {
                    SchemelessUrl.parse(matchImage);
                } catch (SchemelessUrl.InvalidUrlException e) {
                    errors.add(FieldError.invalid(providers.child("matchImages"), matchImage,
                            "match image is invalid: " + e.getMessage()));
                }
            }
            FieldPath defaultCacheDuration = providers.child("defaultCacheDuration");
            if (provider.defaultCacheDuration() == null) {
                errors.add(FieldError.required(defaultCacheDuration, "defaultCacheDuration is required"));
            } else if (provider.defaultCacheDuration().isNegative()) {
                // A time.Duration prints itself (String()), unquoted.
                errors.add(FieldError.invalid(defaultCacheDuration,
                        new GoDurationValue(GoDuration.format(provider.defaultCacheDuration())),
                        "defaultCacheDuration must be greater than or equal to 0"));
            }
        }
        return errors;
    }

    /** The errors as upstream's {@code ErrorList.ToAggregate()} prints them: one alone, several as {@code [a, b]}. */
    public static String aggregate(List<FieldError> errors) {
        Set<String> messages = new LinkedHashSet<>();
        errors.forEach(e -> messages.add(e.toString()));
        return messages.size() == 1 ? messages.iterator().next() : "[" + String.join(", ", messages) + "]";
    }

    /** A duration as Go's {@code %s} of a {@code time.Duration} prints it in an error. */
    private record GoDurationValue(String text) {
        @Override
        public String toString() {
            return text;
        }
    }
}
