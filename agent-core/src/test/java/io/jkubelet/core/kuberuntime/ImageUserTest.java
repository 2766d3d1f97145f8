package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.runtime.Image;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The image's user as upstream's {@code getImageUser} reads it off the runtime's image status. */
class ImageUserTest {
    private static Optional<Image> configured(String user) {
        return Optional.of(Image.withConfigUser("sha256:1", List.of("i:1"), List.of(), 1, user));
    }

    @Test
    void aNumericUserIsTheUidANamedOneTheNameAndTheGroupIsDropped() {
        assertThat(ImageUser.of(configured("1000"))).isEqualTo(ImageUser.uid(1000));
        assertThat(ImageUser.of(configured("1000:3000"))).isEqualTo(ImageUser.uid(1000));
        assertThat(ImageUser.of(configured("0"))).isEqualTo(ImageUser.ROOT);
        assertThat(ImageUser.of(configured("nobody"))).isEqualTo(ImageUser.named("nobody"));
        assertThat(ImageUser.of(configured("nobody:nogroup"))).isEqualTo(ImageUser.named("nobody"));
    }

    @Test
    void anImageWithoutAUserOrUnknownToTheRuntimeRunsAsRoot() {
        assertThat(ImageUser.of(configured(""))).isEqualTo(ImageUser.ROOT);
        assertThat(ImageUser.of(configured(":3000"))).as("a group alone names no user").isEqualTo(ImageUser.ROOT);
        assertThat(ImageUser.of(Optional.empty())).isEqualTo(ImageUser.ROOT);
    }
}
