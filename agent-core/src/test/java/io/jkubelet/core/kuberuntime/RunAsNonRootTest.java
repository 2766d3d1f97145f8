package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code runAsNonRoot} decision, case for case as upstream's {@code TestVerifyRunAsNonRoot}
 * ({@code security_context_others_test.go}, with the invalid-uid cases of v1.33), plus the pod-level settings
 * upstream's {@code DetermineEffectiveSecurityContext} merges in, each refusal with its exact message.
 */
class RunAsNonRootTest {
    private static final long ROOT = 0;
    private static final long ANY_USER = 1000;

    /** One row: the container's and the pod's security contexts, the image's user, and the refusal (null: runs). */
    record Case(String desc, SecurityContext sc, PodSecurityContext podSc, ImageUser image, String refusal) {
        @Override
        public String toString() {
            return desc;
        }
    }

    private static SecurityContextBuilder sc() {
        return new SecurityContextBuilder();
    }

    private static final String WHERE = "(pod: \"bar_new(12345678)\", container: foo)";

    static Stream<Case> cases() {
        return Stream.of(
                new Case("Pass if SecurityContext is not set", null, null, ImageUser.uid(ROOT), null),
                new Case("Pass if RunAsUser is non-root and RunAsNonRoot is true",
                        sc().withRunAsNonRoot(true).withRunAsUser(ANY_USER).build(), null, new ImageUser(null, ""),
                        null),
                new Case("Pass if RunAsNonRoot is not set", sc().withRunAsUser(ROOT).build(), null,
                        ImageUser.uid(ROOT), null),
                new Case("Pass if RunAsNonRoot is false (image user is root)", sc().withRunAsNonRoot(false).build(),
                        null, ImageUser.uid(ROOT), null),
                new Case("Pass if RunAsNonRoot is false (RunAsUser is root)",
                        sc().withRunAsNonRoot(false).withRunAsUser(ROOT).build(), null, ImageUser.uid(ROOT), null),
                new Case("Fail if container's RunAsUser is root and RunAsNonRoot is true",
                        sc().withRunAsNonRoot(true).withRunAsUser(ROOT).build(), null, ImageUser.uid(ROOT),
                        "container's runAsUser breaks non-root policy " + WHERE),
                new Case("Fail if image's user is root and RunAsNonRoot is true", sc().withRunAsNonRoot(true).build(),
                        null, ImageUser.uid(ROOT), "container has runAsNonRoot and image will run as root " + WHERE),
                new Case("Fail if image's username is set and RunAsNonRoot is true",
                        sc().withRunAsNonRoot(true).build(), null, ImageUser.named("test"),
                        "container has runAsNonRoot and image has non-numeric user (test), cannot verify user is "
                                + "non-root " + WHERE),
                new Case("Pass if image's user is non-root and RunAsNonRoot is true",
                        sc().withRunAsNonRoot(true).build(), null, ImageUser.uid(ANY_USER), null),
                new Case("Pass if container's user and image's user aren't set and RunAsNonRoot is true",
                        sc().withRunAsNonRoot(true).build(), null, new ImageUser(null, ""), null),
                new Case("Fail if image's user is invalid and RunAsNonRoot is true", sc().withRunAsNonRoot(true).build(),
                        null, ImageUser.uid(2147483648L), "container has runAsNonRoot and image has an invalid user id "
                                + "(2147483648). (Must be 1-(2147483647)): must be between 0 and 2147483647, inclusive "
                                + WHERE),
                new Case("Fail if image's user is negative and RunAsNonRoot is true",
                        sc().withRunAsNonRoot(true).build(), null, ImageUser.uid(-1000), "container has runAsNonRoot "
                                + "and image has an invalid user id (-1000). (Must be 1-(2147483647)): must be between 0 "
                                + "and 2147483647, inclusive " + WHERE),
                new Case("Pass if image's user is math.MaxInt32 and RunAsNonRoot is true",
                        sc().withRunAsNonRoot(true).build(), null, ImageUser.uid(Integer.MAX_VALUE), null),
                // The pod's security context counts where the container's says nothing.
                new Case("Fail if the pod's RunAsNonRoot is true and the image's user is root", null,
                        new PodSecurityContextBuilder().withRunAsNonRoot(true).build(), ImageUser.ROOT,
                        "container has runAsNonRoot and image will run as root " + WHERE),
                new Case("Fail if the pod's RunAsUser is root and the container's RunAsNonRoot is true",
                        sc().withRunAsNonRoot(true).build(), new PodSecurityContextBuilder().withRunAsUser(ROOT).build(),
                        ImageUser.uid(ANY_USER), "container's runAsUser breaks non-root policy " + WHERE),
                new Case("Pass if the container's RunAsUser overrides the pod's root one",
                        sc().withRunAsUser(ANY_USER).build(),
                        new PodSecurityContextBuilder().withRunAsNonRoot(true).withRunAsUser(ROOT).build(),
                        ImageUser.ROOT, null),
                new Case("Pass if the container's RunAsNonRoot false overrides the pod's true",
                        sc().withRunAsNonRoot(false).build(),
                        new PodSecurityContextBuilder().withRunAsNonRoot(true).build(), ImageUser.ROOT, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void verify(Case c) {
        Container container = new ContainerBuilder().withName("foo").withImage("busybox")
                .withImagePullPolicy("IfNotPresent").withCommand("testCommand").withWorkingDir("testWorkingDir")
                .withSecurityContext(c.sc()).build();
        Pod pod = new PodBuilder().withNewMetadata().withUid("12345678").withName("bar").withNamespace("new")
                .endMetadata().withNewSpec().withContainers(container).withSecurityContext(c.podSc()).endSpec().build();

        if (c.refusal() == null) {
            assertThatCode(() -> RunAsNonRoot.verify(pod, container, c.image())).doesNotThrowAnyException();
        } else {
            assertThatThrownBy(() -> RunAsNonRoot.verify(pod, container, c.image()))
                    .isInstanceOf(ContainerConfigFactory.ConfigException.class).hasMessage(c.refusal());
        }
    }
}
