package io.jkubelet.core.volume.gitrepo;

import io.fabric8.kubernetes.api.model.GitRepoVolumeSource;
import io.jkubelet.core.config.validation.FieldError;
import io.jkubelet.core.volume.VolumeException;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Upstream's {@code validateVolume} of a gitRepo volume, before anything runs: its values become git's arguments, so
 * none may start with {@code -} (git would take it for an option); and with a revision the directory must be one level
 * (v1.30.3's fix of CVE-2024-10220: the checkout runs in the directory cloned into, and a deeper one, such as a bare
 * repository committed inside the cloned one, would run that repository's hooks on the node). Pure.
 */
final class GitRepoValidation {
    private GitRepoValidation() {}

    /** @throws VolumeException with upstream's message for the first value that is refused */
    static void validate(GitRepoVolumeSource src) throws VolumeException {
        nonFlagArgument(src.getRepository(), "repository");
        nonFlagArgument(src.getRevision(), "revision");
        nonFlagArgument(src.getDirectory(), "directory");
        if (isSet(src.getRevision()) && isSet(src.getDirectory())) {
            String cleaned = clean(src.getDirectory());
            if (cleaned.contains("/") || cleaned.contains("\\")) {
                throw new VolumeException(FieldError.quote(src.getDirectory())
                        + " is not a valid directory, it must not contain a directory separator");
            }
        }
    }

    /** Upstream {@code validateNonFlagArgument}. */
    private static void nonFlagArgument(String arg, String argName) throws VolumeException {
        if (isSet(arg) && arg.charAt(0) == '-') {
            throw new VolumeException(FieldError.quote(arg) + " is an invalid value for " + argName);
        }
    }

    /**
     * The directory cleaned lexically, as Go's {@code filepath.Clean} ({@code a/} and {@code ./a} are {@code a}), the
     * current directory as the empty string; a value no path can hold is left as it is.
     */
    static String clean(String directory) {
        try {
            return Path.of(directory).normalize().toString();
        } catch (InvalidPathException e) {
            return directory;
        }
    }

    static boolean isSet(String s) {
        return s != null && !s.isEmpty();
    }
}
