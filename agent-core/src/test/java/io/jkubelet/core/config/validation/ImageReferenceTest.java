package io.jkubelet.core.config.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ImageReferenceTest {

    private static final String DIGEST = "sha256:" + "a".repeat(64);

    @ParameterizedTest(name = "{0}")
    @CsvSource(nullValues = "-", value = {
            "nginx, docker.io, library/nginx, -, -",
            "nginx:1.25, docker.io, library/nginx, 1.25, -",
            "index.docker.io/team/app, docker.io, team/app, -, -",
            "localhost/app:v1, localhost, app, v1, -",
            "localhost:5000/team/app:v1, localhost:5000, team/app, v1, -",
            "registry.k8s.io/pause:3.9, registry.k8s.io, pause, 3.9, -",
            "[::1]:5000/app, [::1]:5000, app, -, -",
            "Registry.Local/app, Registry.Local, app, -, -",
            "a__b/c--d.e_f:V_1.2-3, docker.io, a__b/c--d.e_f, V_1.2-3, -"})
    void parsesAndNormalises(String image, String domain, String path, String tag, String digest) {
        assertThat(ImageReference.parseNormalized(image)).isEqualTo(new ImageReference(domain, path, tag, digest));
    }

    @org.junit.jupiter.api.Test
    void keepsTheDigest() {
        assertThat(ImageReference.parseNormalized("busybox:1@" + DIGEST))
                .isEqualTo(new ImageReference("docker.io", "library/busybox", "1", DIGEST));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "''                       | invalid reference format",
            "Nginx                    | invalid reference format: repository name (library/Nginx) must be lowercase",
            "team/App                 | invalid reference format: repository name (team/App) must be lowercase",
            "nginx:                   | invalid reference format",
            "nginx:-bad               | invalid reference format",
            "nginx bad                | invalid reference format",
            "-nginx                   | invalid reference format",
            "nginx@sha256:abc         | invalid reference format",
            "nginx@md5:0123456789abcdef0123456789abcdef | unsupported digest algorithm",
            "nginx@sha256:0123456789abcdef0123456789abcdef | invalid checksum digest format"})
    void refusesWithTheReason(String image, String reason) {
        assertThatThrownBy(() -> ImageReference.parseNormalized(image))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(reason);
    }

    @org.junit.jupiter.api.Test
    void refusesAnImageIdAsName() {
        assertThatThrownBy(() -> ImageReference.parseNormalized("a".repeat(64)))
                .hasMessageContaining("cannot specify 64-byte hexadecimal strings");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "-", value = {"nginx, latest", "nginx:1, 1", "'nginx@" + "sha256:" + "0000000000000000000000000000000000000000000000000000000000000000', ''",
            "NGINX, ''"})
    void effectiveTag(String image, String tag) {
        assertThat(ImageReference.effectiveTag(image)).isEqualTo(tag);
    }
}
