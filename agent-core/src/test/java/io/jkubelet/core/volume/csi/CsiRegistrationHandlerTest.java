package io.jkubelet.core.volume.csi;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CsiRegistrationHandlerTest {
    /** Records what the handler installs and uninstalls; fails installs while {@code failing} is set. */
    private static final class RecordingInstaller implements CsiRegistrationHandler.DriverInstaller {
        final List<String> calls = new ArrayList<>();
        String failing;

        @Override
        public void install(String driverName, String endpoint) throws Exception {
            calls.add("install " + driverName + " " + endpoint);
            if (failing != null) {
                throw new Exception(failing);
            }
        }

        @Override
        public void uninstall(String driverName) {
            calls.add("uninstall " + driverName);
        }
    }

    private final CsiDrivers drivers = new CsiDrivers();
    private final RecordingInstaller installer = new RecordingInstaller();
    private final CsiRegistrationHandler handler = new CsiRegistrationHandler(drivers, installer);

    @Test
    void aDriverSpeakingCsi1IsStoredWithItsHighestVersionAndInstalled() throws Exception {
        handler.validatePlugin("hostpath.csi.k8s.io", "/var/lib/kubelet/plugins/hp/csi.sock", List.of("0.3.0", "1.0.0", "1.5.0"));
        handler.registerPlugin("hostpath.csi.k8s.io", "/var/lib/kubelet/plugins/hp/csi.sock", List.of("0.3.0", "1.0.0", "1.5.0"));

        assertThat(drivers.get("hostpath.csi.k8s.io")).hasValueSatisfying(d -> {
            assertThat(d.endpoint()).isEqualTo("/var/lib/kubelet/plugins/hp/csi.sock");
            assertThat(d.highestSupportedVersion()).hasToString("1.5.0");
        });
        assertThat(installer.calls).containsExactly("install hostpath.csi.k8s.io /var/lib/kubelet/plugins/hp/csi.sock");
    }

    @Test
    void aDriverWithoutCsi1IsRefusedInUpstreamsWords() {
        assertThatThrownBy(() -> handler.validatePlugin("old.csi", "/s.sock", List.of("0.3.0")))
                .hasMessage("validation failed for CSI Driver old.csi at endpoint /s.sock: kubernetes.io/csi: ValidatePlugin "
                        + "for CSI driver \"old.csi\" failed. None of the versions specified [\"0.3.0\"] are supported. "
                        + "err=highest supported version reported is 0.3.0, must be v1.x");
        assertThatThrownBy(() -> handler.validatePlugin("new.csi", "/s.sock", List.of("2.0.0", "banana")))
                .hasMessageEndingWith("None of the versions specified [\"2.0.0\" \"banana\"] are supported. "
                        + "err=could not find a highest supported version from versions ([2.0.0 banana]) reported: "
                        + "could not parse \"banana\" as version");
        assertThatThrownBy(() -> handler.validatePlugin("none.csi", "/s.sock", List.of()))
                .hasMessageEndingWith("kubernetes.io/csi: ValidatePlugin for CSI driver \"none.csi\" failed. Plugin "
                        + "returned an empty list for supported versions");
        assertThat(installer.calls).isEmpty();
    }

    @Test
    void aNamesakeMayReplaceARegisteredDriverOnlyWithAHigherVersion() throws Exception {
        handler.registerPlugin("d.csi", "/a.sock", List.of("1.2.0"));

        assertThatThrownBy(() -> handler.registerPlugin("d.csi", "/b.sock", List.of("1.2.0")))
                .hasMessage("kubernetes.io/csi: RegisterPlugin for CSI driver \"d.csi\" failed. Another driver with the "
                        + "same name is already registered with a higher supported version: \"1.2.0\"");
        assertThat(drivers.get("d.csi")).hasValueSatisfying(d -> assertThat(d.endpoint()).isEqualTo("/a.sock"));

        handler.registerPlugin("d.csi", "/c.sock", List.of("v1.3"));
        assertThat(drivers.get("d.csi")).hasValueSatisfying(d -> assertThat(d.endpoint()).isEqualTo("/c.sock"));
    }

    @Test
    void aDriverThatCannotBeInstalledIsForgottenAndTheErrorGoesBack() {
        installer.failing = "rpc error: code = Unavailable desc = connection refused";

        assertThatThrownBy(() -> handler.registerPlugin("d.csi", "/a.sock", List.of("1.0.0")))
                .hasMessage("rpc error: code = Unavailable desc = connection refused");
        assertThat(drivers.get("d.csi")).isEmpty();
        assertThat(installer.calls).containsExactly("install d.csi /a.sock", "uninstall d.csi");
    }

    @Test
    void aDriverWhoseSocketWentIsForgotten() throws Exception {
        handler.registerPlugin("d.csi", "/a.sock", List.of("1.0.0"));
        handler.deRegisterPlugin("d.csi", "/a.sock");

        assertThat(drivers.get("d.csi")).isEmpty();
        assertThat(installer.calls).containsExactly("install d.csi /a.sock", "uninstall d.csi");
    }
}
