package io.jkubelet.core.config.validation;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A container image reference in the Docker reference grammar ({@code github.com/distribution/reference}),
 * normalised as the kubelet's {@code parsers.ParseImageName} does: {@code nginx} is
 * {@code docker.io/library/nginx}, {@code localhost:5000/app} keeps its registry.
 *
 * @param domain the registry, e.g. {@code docker.io} or {@code localhost:5000}
 * @param path   the repository path, e.g. {@code library/nginx}
 * @param tag    the tag, {@code null} when none was given
 * @param digest the digest ({@code sha256:...}), {@code null} when none was given
 */
public record ImageReference(String domain, String path, String tag, String digest) {

    /** The tag an image without tag and digest gets ({@code parsers.DefaultImageTag}). */
    public static final String DEFAULT_TAG = "latest";

    private static final String DEFAULT_DOMAIN = "docker.io";
    private static final String LEGACY_DEFAULT_DOMAIN = "index.docker.io";
    private static final String OFFICIAL_REPO_PREFIX = "library/";
    private static final int NAME_TOTAL_LENGTH_MAX = 255;

    private static final String ALPHANUMERIC = "[a-z0-9]+";
    private static final String SEPARATOR = "(?:[._]|__|[-]+)";
    private static final String PATH_COMPONENT = ALPHANUMERIC + "(?:" + SEPARATOR + ALPHANUMERIC + ")*";
    private static final String DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
    private static final String DOMAIN = "(?:" + DOMAIN_COMPONENT + "(?:\\." + DOMAIN_COMPONENT + ")*"
            + "|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?";
    private static final String TAG = "[\\w][\\w.-]{0,127}";
    private static final String DIGEST = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";
    private static final String NAME = "(?:" + DOMAIN + "/)?" + PATH_COMPONENT + "(?:/" + PATH_COMPONENT + ")*";
    private static final Pattern REFERENCE = Pattern.compile(
            "(" + NAME + ")(?::(" + TAG + "))?(?:@(" + DIGEST + "))?");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-f0-9]{64}");
    private static final Map<String, Integer> DIGEST_HEX_LENGTHS = Map.of("sha256", 64, "sha384", 96, "sha512", 128);
    private static final Pattern LOWER_HEX = Pattern.compile("[a-f0-9]+");

    /**
     * Parses and normalises an image reference ({@code reference.ParseNormalizedNamed}).
     *
     * @throws IllegalArgumentException naming what is wrong, in the words of the Docker reference library
     */
    public static ImageReference parseNormalized(String image) {
        if (IDENTIFIER.matcher(image).matches()) {
            throw new IllegalArgumentException(
                    "invalid repository name (" + image + "), cannot specify 64-byte hexadecimal strings");
        }
        String domain;
        String remainder;
        int slash = image.indexOf('/');
        String first = slash < 0 ? "" : image.substring(0, slash);
        if (slash < 0 || (!first.contains(".") && !first.contains(":") && !first.equals("localhost")
                && first.toLowerCase(Locale.ROOT).equals(first))) {
            domain = DEFAULT_DOMAIN;
            remainder = image;
        } else {
            domain = first;
            remainder = image.substring(slash + 1);
        }
        if (domain.equals(LEGACY_DEFAULT_DOMAIN)) {
            domain = DEFAULT_DOMAIN;
        }
        if (domain.equals(DEFAULT_DOMAIN) && !remainder.contains("/")) {
            remainder = OFFICIAL_REPO_PREFIX + remainder;
        }
        int colon = remainder.indexOf(':');
        String remoteName = colon < 0 ? remainder : remainder.substring(0, colon);
        if (!remoteName.toLowerCase(Locale.ROOT).equals(remoteName)) {
            throw new IllegalArgumentException(
                    "invalid reference format: repository name (" + remoteName + ") must be lowercase");
        }
        return parse(domain + "/" + remainder);
    }

    private static ImageReference parse(String reference) {
        Matcher m = REFERENCE.matcher(reference);
        if (!m.matches()) {
            if (reference.isEmpty()) {
                throw new IllegalArgumentException("repository name must have at least one component");
            }
            if (REFERENCE.matcher(reference.toLowerCase(Locale.ROOT)).matches()) {
                throw new IllegalArgumentException("repository name must be lowercase");
            }
            throw new IllegalArgumentException("invalid reference format");
        }
        String name = m.group(1);
        if (name.length() > NAME_TOTAL_LENGTH_MAX) {
            throw new IllegalArgumentException("repository name must not be more than 255 characters");
        }
        String digest = m.group(3);
        if (digest != null) {
            validateDigest(digest);
        }
        int slash = name.indexOf('/');
        return new ImageReference(name.substring(0, slash), name.substring(slash + 1), m.group(2), digest);
    }

    private static void validateDigest(String digest) {
        int colon = digest.indexOf(':');
        String algorithm = digest.substring(0, colon);
        String hex = digest.substring(colon + 1);
        Integer length = DIGEST_HEX_LENGTHS.get(algorithm);
        if (length == null) {
            throw new IllegalArgumentException("unsupported digest algorithm");
        }
        if (hex.length() != length || !LOWER_HEX.matcher(hex).matches()) {
            throw new IllegalArgumentException("invalid checksum digest format");
        }
    }

    /**
     * The tag the kubelet's pull-policy default looks at ({@code parsers.ParseImageName}): the given
     * tag, {@link #DEFAULT_TAG} when there is neither tag nor digest, empty when there is only a
     * digest, and empty when {@code image} is not a valid reference.
     */
    public static String effectiveTag(String image) {
        ImageReference ref;
        try {
            ref = parseNormalized(image == null ? "" : image);
        } catch (IllegalArgumentException e) {
            return "";
        }
        if (ref.tag() != null) {
            return ref.tag();
        }
        return ref.digest() == null ? DEFAULT_TAG : "";
    }

    /** {@code domain/path}, e.g. {@code docker.io/library/nginx}. */
    public String name() {
        return domain + "/" + path;
    }
}
