package io.jkubelet.core.cm.devicemanager;

import io.jkubelet.core.config.validation.NameValidation;

/** Which resource names a device plugin may register (upstream {@code v1helper.IsExtendedResourceName}). */
public final class ResourceNames {
    /** Upstream {@code v1.DefaultResourceRequestsPrefix}. */
    private static final String REQUESTS_PREFIX = "requests.";

    private ResourceNames() {}

    /**
     * An extended resource: not a native one (a name with no domain, or in {@code kubernetes.io/}), not a quota's
     * {@code requests.} name, and a qualified name once prefixed with {@code requests.} as quota would name it.
     */
    public static boolean isExtendedResourceName(String name) {
        boolean nativeResource = !name.contains("/") || name.contains("kubernetes.io/");
        if (nativeResource || name.startsWith(REQUESTS_PREFIX)) {
            return false;
        }
        return NameValidation.qualifiedName(REQUESTS_PREFIX + name).isEmpty();
    }
}
