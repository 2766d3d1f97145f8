package io.jkubelet.core.images;

/** Questions about an image reference that the kubelet asks (defaulting of the pull policy). */
public final class ImageReference {
    private ImageReference() {}

    /** The tag of a reference, {@code latest} when none is given, or empty for a digest reference. */
    public static String tag(String image) {
        if (image.contains("@")) {
            return "";
        }
        int slash = image.lastIndexOf('/');
        int colon = image.lastIndexOf(':');
        return colon > slash ? image.substring(colon + 1) : "latest";
    }

    /** The pull policy a container gets when it sets none: {@code Always} for {@code :latest}, else IfNotPresent. */
    public static String defaultPullPolicy(String image) {
        return "latest".equals(tag(image)) ? "Always" : "IfNotPresent";
    }
}
