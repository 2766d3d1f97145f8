package io.jkubelet.core.credentialprovider;

import io.jkubelet.core.runtime.RegistryAuth;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code URLsMatchStr}, {@code ParseSchemelessURL} and {@code filepath.Match} with upstream's own test cases. */
class UrlGlobTest {

    /** Upstream's {@code TestURLsMatch} (pkg/credentialprovider/keyring_test.go), every case. */
    @ParameterizedTest(name = "{0} ~ {1}: {2}")
    @CsvSource({
            // match when there is no path component
            "*.kubernetes.io, prefix.kubernetes.io, true",
            "prefix.*.io, prefix.kubernetes.io, true",
            "prefix.kubernetes.*, prefix.kubernetes.io, true",
            "*-good.kubernetes.io, prefix-good.kubernetes.io, true",
            // match with path components
            "*.kubernetes.io/blah, prefix.kubernetes.io/blah, true",
            "prefix.*.io/foo, prefix.kubernetes.io/foo/bar, true",
            // match with path components and ports
            "*.kubernetes.io:1111/blah, prefix.kubernetes.io:1111/blah, true",
            "prefix.*.io:1111/foo, prefix.kubernetes.io:1111/foo/bar, true",
            // no match when number of parts mismatch
            "*.kubernetes.io, kubernetes.io, false",
            "*.*.kubernetes.io, prefix.kubernetes.io, false",
            "*.*.kubernetes.io, kubernetes.io, false",
            // no match when some parts mismatch
            "kubernetes.io, kubernetes.com, false",
            "k*.io, quay.io, false",
            // no match when ports mismatch
            "*.kubernetes.io:1234/blah, prefix.kubernetes.io:1111/blah, false",
            "prefix.*.io/foo, prefix.kubernetes.io:1111/foo/bar, false",
    })
    void upstreamsUrlsMatchCases(String glob, String target, boolean expected) {
        assertThat(UrlGlob.matches(glob, target)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} ~ {1}: {2}")
    @CsvSource({
            // A path is a plain prefix, globs in it are literal.
            "reg.io/team, reg.io/teammate/app, true",
            "reg.io/*, reg.io/app, false",
            "reg.io/*, reg.io/*/app, true",
            // A port in the image needs one in the location, and the other way round.
            "127.0.0.1, 127.0.0.1:5000/app, false",
            "127.0.0.1:5000, 127.0.0.1/app, false",
            "127.0.0.1:5000, 127.0.0.1:5000/app, true",
            "*.*.*.*:5000, 127.0.0.1:5000/app, true",
            // Go's filepath.Match classes with ranges.
            "reg[0-9].io, reg7.io/app, true",
            "reg[0-9].io, regx.io/app, false",
            // What url.Parse does first leaves some of filepath.Match unusable, upstream too: '?' starts the query,
            // '^' and '\\' are refused in a host name.
            "reg?.io, reg1.io/app, false",
            "reg?.io, reg/app, true",
            "reg[^0-9].io, regx.io/app, false",
            "r\\eg.io, reg.io/app, false",
            // Java's glob syntax is not Go's: braces are literal, [! is no negation.
            "'{reg,other}.io', reg.io/app, false",
            "reg[!0-9].io, reg!.io/app, true",
            "reg[!0-9].io, regx.io/app, false",
            // A malformed glob matches nothing, as upstream's ignored ErrBadPattern.
            "reg[.io, reg[.io/app, false",
            "[]a].io, ].io/app, false",
            "reg\\, reg/app, false",
            // IPv6 literals keep their brackets off the labels, and their port.
            "[::1]:5000, [::1]:5000/app, true",
            "[::1]:5000, [::1]:5001/app, false",
    })
    void globsAreGosFilepathMatchPerHostLabel(String glob, String target, boolean expected) {
        assertThat(UrlGlob.matches(glob, target)).isEqualTo(expected);
    }

    @Test
    void goGlobSyntaxErrorsAreGos() {
        for (String bad : new String[] {"[", "a[", "[a", "[a-", "[^", "\\", "[]", "[-a]", "[a-]"}) {
            assertThatThrownBy(() -> GoGlob.match(bad, "a")).as(bad).isInstanceOf(GoGlob.BadPatternException.class)
                    .hasMessage("syntax error in pattern");
        }
    }

    @Test
    void parseSchemelessUrlRefusesWhatGosUrlParseRefuses() {
        assertThatThrownBy(() -> SchemelessUrl.parse("%invalid%"))
                .hasMessage("parse \"https://%invalid%\": invalid URL escape \"%in\"");
        assertThatThrownBy(() -> SchemelessUrl.parse("reg istry.io"))
                .hasMessage("parse \"https://reg istry.io\": invalid character \" \" in host name");
        assertThatThrownBy(() -> SchemelessUrl.parse("reg.io:port/app"))
                .hasMessage("parse \"https://reg.io:port/app\": invalid port \":port\" after host");
        assertThatThrownBy(() -> SchemelessUrl.parse("[::1/app"))
                .hasMessage("parse \"https://[::1/app\": missing ']' in host");
        assertThatThrownBy(() -> SchemelessUrl.parse("reg.io/a\tb"))
                .hasMessage("parse \"https://reg.io/a\\tb\": net/url: invalid control character in URL");
        assertThatThrownBy(() -> SchemelessUrl.parse("reg.io/%zz"))
                .hasMessage("parse \"https://reg.io/%zz\": invalid URL escape \"%zz\"");
    }

    @Test
    void parseSchemelessUrlKeepsHostPortAndDecodedPath() throws Exception {
        SchemelessUrl url = SchemelessUrl.parse("user:pw@*.reg.io:5000/team%2Fa?x=1#frag");
        assertThat(url.host()).isEqualTo("*.reg.io:5000");
        assertThat(url.hostLabels()).containsExactly("*", "reg", "io");
        assertThat(url.port()).isEqualTo("5000");
        assertThat(url.path()).isEqualTo("/team/a");
        assertThat(SchemelessUrl.parse("reg.io").path()).isEmpty();
        assertThat(SchemelessUrl.parse("reg.io:").port()).isEmpty();
        assertThat(SchemelessUrl.parse("a:b:5000").hostLabels()).containsExactly("a:b:5000");
    }

    /** Upstream's {@code TestDockerKeyringForGlob}: each location finds {@code <target>/foo/bar}. */
    @ParameterizedTest(name = "{0} finds {1}")
    @CsvSource({
            "https://hello.kubernetes.io, hello.kubernetes.io",
            "https://*.docker.io, prefix.docker.io",
            "https://prefix.*.io, prefix.docker.io",
            "https://prefix.docker.*, prefix.docker.io",
            "https://*.docker.io/path, prefix.docker.io/path",
            "https://prefix.*.io/path, prefix.docker.io/path/subpath",
            "https://prefix.docker.*/path, prefix.docker.io/path",
            "https://*.docker.io:8888, prefix.docker.io:8888",
            "https://prefix.*.io:8888, prefix.docker.io:8888",
            "https://prefix.docker.*:8888, prefix.docker.io:8888",
            "https://*.docker.io/path:1111, prefix.docker.io/path:1111",
            "https://*.docker.io/v1/, prefix.docker.io/path:1111",
            "https://*.docker.io/v2/, prefix.docker.io/path:1111",
            "https://prefix.docker.*/path:1111, prefix.docker.io/path:1111",
            "prefix.docker.io:1111, prefix.docker.io:1111/path",
            "*.docker.io:1111, prefix.docker.io:1111/path",
    })
    void upstreamsKeyringGlobCases(String location, String target) {
        DockerKeyring keyring = DockerKeyring.EMPTY.with(Map.of(location, new RegistryAuth("foo", "bar", location, null)));
        // Upstream looks up the repository as given; ours reads an image name, which may not have a ':' in its path.
        assertThat(UrlGlob.matches(DockerKeyringKeys.key(location), target + "/foo/bar")).isTrue();
        if (!target.contains("/path:")) {
            assertThat(keyring.lookup(target + "/foo/bar")).extracting(RegistryAuth::username).containsExactly("foo");
        }
    }

    /** Upstream's {@code TestKeyringMiss}. */
    @ParameterizedTest(name = "{0} misses {1}")
    @CsvSource({
            "https://hello.kubernetes.io, world.mesos.org/foo/bar",
            "https://*.docker.com, prefix.docker.io",
            "https://suffix.*.io, prefix.docker.io",
            "https://prefix.docker.c*, prefix.docker.io",
            "https://prefix.*.io/path:1111, prefix.docker.io/path/subpath:1111",
            "suffix.*.io, prefix.docker.io",
    })
    void upstreamsKeyringMissCases(String location, String lookup) {
        assertThat(UrlGlob.matches(DockerKeyringKeys.key(location), lookup + "/foo/bar")).isFalse();
    }

    /** The keyring's keys, for the cases above. */
    private static final class DockerKeyringKeys {
        static String key(String location) {
            try {
                return DockerKeyring.key(location);
            } catch (SchemelessUrl.InvalidUrlException e) {
                throw new AssertionError(e);
            }
        }
    }
}
