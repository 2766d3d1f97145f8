package io.jkubelet.docker;

import io.jkubelet.core.runtime.SecurityProfile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A seccomp profile as Docker's {@code SecurityOpt}, as dockershim's {@code getSeccompSecurityOpts}: Unconfined is
 * {@code seccomp=unconfined} (Docker would otherwise apply its default profile), RuntimeDefault is no option at all
 * (Docker's own default profile), and Localhost is the profile file's JSON, compacted, since Docker takes the
 * profile's content rather than a path.
 */
final class SeccompOptions {
    static final String UNCONFINED = "seccomp=unconfined";
    /** Lenient as Jackson 2 was: what follows the profile's JSON value is ignored. */
    private static final ObjectMapper JSON =
            JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    private SeccompOptions() {}

    /**
     * @param what the container or sandbox, for the error
     * @throws IllegalArgumentException when a Localhost profile cannot be read or is not JSON, naming the file
     */
    static List<String> of(SecurityProfile profile, String what) {
        return switch (profile.type()) {
            case UNCONFINED -> List.of(UNCONFINED);
            case RUNTIME_DEFAULT -> List.of();
            case LOCALHOST -> List.of("seccomp=" + load(Path.of(profile.localhostRef()), what));
        };
    }

    private static String load(Path file, String what) {
        String prefix = "failed to generate seccomp security options for " + what + ": cannot load seccomp profile \""
                + file + "\": ";
        if (!file.isAbsolute()) {
            throw new IllegalArgumentException("failed to generate seccomp security options for " + what
                    + ": seccomp profile path must be absolute, but got relative path \"" + file + "\"");
        }
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(prefix + "open " + file + ": no such file or directory", e);
        } catch (IOException e) {
            throw new IllegalArgumentException(prefix + e, e);
        }
        try {
            return JSON.writeValueAsString(JSON.readTree(content));
        } catch (JacksonException e) {
            throw new IllegalArgumentException(prefix + "not JSON: " + e.getOriginalMessage(), e);
        }
    }
}
