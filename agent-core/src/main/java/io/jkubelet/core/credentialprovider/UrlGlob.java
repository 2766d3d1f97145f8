package io.jkubelet.core.credentialprovider;

import java.util.List;

/**
 * Whether an image falls under a registry location that may hold globs, as upstream's {@code URLsMatchStr}: both are
 * read as schemeless URLs; the ports must be equal (no port matches only no port); the hosts must have as many
 * dot-separated labels, each matching its glob ({@link GoGlob}: {@code *.example.com} matches
 * {@code registry.example.com} but not {@code a.b.example.com} nor {@code example.com}); and the image's path must
 * start with the location's path (a plain prefix: {@code reg.io/team} matches {@code reg.io/teammate/app} too).
 * Globs work in the host only. A location or image that is no URL, or a malformed glob, matches nothing.
 * Keyrings ({@code BasicDockerKeyring}) and credential provider plugins' {@code matchImages} both match so.
 */
public final class UrlGlob {
    private UrlGlob() {}

    /** {@code URLsMatchStr(glob, target)}; its error is no match, as every caller upstream takes it. */
    public static boolean matches(String glob, String target) {
        SchemelessUrl globUrl;
        SchemelessUrl targetUrl;
        try {
            globUrl = SchemelessUrl.parse(glob);
            targetUrl = SchemelessUrl.parse(target);
        } catch (SchemelessUrl.InvalidUrlException e) {
            return false;
        }
        if (!globUrl.port().equals(targetUrl.port())) {
            return false;
        }
        List<String> globLabels = globUrl.hostLabels();
        List<String> targetLabels = targetUrl.hostLabels();
        if (globLabels.size() != targetLabels.size() || !targetUrl.path().startsWith(globUrl.path())) {
            return false;
        }
        try {
            for (int i = 0; i < globLabels.size(); i++) {
                if (!GoGlob.match(globLabels.get(i), targetLabels.get(i))) {
                    return false;
                }
            }
        } catch (GoGlob.BadPatternException e) {
            return false;
        }
        return true;
    }
}
