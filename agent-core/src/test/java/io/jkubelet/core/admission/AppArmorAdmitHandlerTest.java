package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The AppArmor gate's admission, as upstream's appArmorAdmitHandler over apparmor.Validator. */
class AppArmorAdmitHandlerTest {
    private final AppArmorAdmitHandler noAppArmorHost = new AppArmorAdmitHandler(() -> false);
    private final AppArmorAdmitHandler appArmorHost = new AppArmorAdmitHandler(() -> true);

    private static PodBuilder pending() {
        return new PodBuilder().withNewMetadata().withName("p").withNamespace("default").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("busybox").endContainer().endSpec()
                .withNewStatus().withPhase("Pending").endStatus();
    }

    private static Pod annotated(String value) {
        return pending().editMetadata().addToAnnotations("container.apparmor.security.beta.kubernetes.io/c", value)
                .endMetadata().build();
    }

    private static Pod withField(String type, String localhost) {
        return pending().editSpec().editFirstContainer().withNewSecurityContext().withNewAppArmorProfile()
                .withType(type).withLocalhostProfile(localhost).endAppArmorProfile().endSecurityContext()
                .endContainer().endSpec().build();
    }

    @Test
    void aProfileOnAHostWithoutAppArmorIsRefusedInUpstreamsWords() {
        for (Pod pod : List.of(annotated("runtime/default"), annotated("localhost/k8s-nginx"),
                withField("RuntimeDefault", null))) {
            PodAdmitResult result = noAppArmorHost.admit(pod, List.of());
            assertThat(result.admit()).isFalse();
            assertThat(result.reason()).isEqualTo("AppArmor");
            assertThat(result.message()).isEqualTo("Cannot enforce AppArmor: AppArmor is not enabled on the host");
        }
    }

    @Test
    void unconfinedNoProfileAndPodsNoLongerPendingAreAdmitted() {
        assertThat(noAppArmorHost.admit(annotated("unconfined"), List.of()).admit()).isTrue();
        assertThat(noAppArmorHost.admit(withField("Unconfined", null), List.of()).admit()).isTrue();
        assertThat(noAppArmorHost.admit(pending().build(), List.of()).admit()).isTrue();
        Pod running = pending().editStatus().withPhase("Running").endStatus().editMetadata()
                .addToAnnotations("container.apparmor.security.beta.kubernetes.io/c", "runtime/default").endMetadata()
                .build();
        assertThat(noAppArmorHost.admit(running, List.of()).admit()).as("upstream checks pending pods only").isTrue();
    }

    @Test
    void onAnAppArmorHostEveryNamedProfileIsAdmittedForTheRuntimeAndALocalhostProfileWithoutANameIsRefused() {
        for (Pod pod : List.of(annotated("runtime/default"), annotated("localhost/k8s-nginx"),
                withField("RuntimeDefault", null), withField("Localhost", "k8s-nginx"), withField("Unconfined", null))) {
            assertThat(appArmorHost.admit(pod, List.of()).admit()).as(pod.getSpec().getContainers().get(0)
                    .getSecurityContext() + " " + pod.getMetadata().getAnnotations()).isTrue();
        }
        PodAdmitResult nameless = appArmorHost.admit(withField("Localhost", " "), List.of());
        assertThat(nameless.admit()).isFalse();
        assertThat(nameless.message())
                .isEqualTo("Cannot enforce AppArmor: invalid empty AppArmor profile name: \"localhost/\"");
        assertThat(appArmorHost.admit(annotated("localhost/"), List.of()).admit()).isFalse();
    }

    @Test
    void aPodLevelProfileCountsForEveryContainer() {
        Pod podLevel = pending().editSpec().withNewSecurityContext().withNewAppArmorProfile().withType("RuntimeDefault")
                .endAppArmorProfile().endSecurityContext().endSpec().build();
        assertThat(noAppArmorHost.admit(podLevel, List.of()).admit()).isFalse();
        assertThat(appArmorHost.admit(podLevel, List.of()).admit()).isTrue();
    }
}
