package io.jkubelet.core.cm;

import io.jkubelet.cadvisor.SystemdSlice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cgroupfs and systemd forms of a cgroup name, as upstream's cgroup_manager_linux_test.go has them. */
class CgroupNameTest {
    private static final CgroupName POD = CgroupName.ROOT.child("kubepods", "burstable", "pod1234-abcd-5678-efgh");

    @Test
    void cgroupfsJoinsTheComponents() {
        assertThat(POD.toCgroupfs()).isEqualTo("/kubepods/burstable/pod1234-abcd-5678-efgh");
        assertThat(CgroupName.ROOT.toCgroupfs()).isEqualTo("/");
    }

    @Test
    void systemdNestsSlicesAndWritesDashesAsUnderscores() {
        assertThat(POD.toSystemd())
                .isEqualTo("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234_abcd_5678_efgh.slice");
        assertThat(CgroupName.ROOT.child("kubepods").toSystemd()).isEqualTo("/kubepods.slice");
        assertThat(CgroupName.ROOT.toSystemd()).isEqualTo("/");
        assertThat(CgroupName.ROOT.child("system-reserved").toSystemd()).isEqualTo("/system_reserved.slice");
    }

    @Test
    void bothFormsReadBack() {
        assertThat(CgroupDriver.SYSTEMD.parse(POD.toSystemd())).isEqualTo(POD);
        assertThat(CgroupDriver.SYSTEMD.parse("kubepods-burstable-pod1234_abcd_5678_efgh.slice")).isEqualTo(POD);
        assertThat(CgroupDriver.CGROUPFS.parse(POD.toCgroupfs())).isEqualTo(POD);
        assertThat(CgroupName.parseCgroupfs("/")).isEqualTo(CgroupName.ROOT);
        assertThat(CgroupName.parseCgroupfs("")).isEqualTo(CgroupName.ROOT);
        assertThat(CgroupName.parseCgroupfs("/jk/e2e").components()).containsExactly("jk", "e2e");
    }

    @Test
    void aComponentMayHoldNoSlashAndNoUnderscore() {
        assertThatThrownBy(() -> CgroupName.ROOT.child("a_b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid character in component [\"a_b\"] of CgroupName");
        assertThatThrownBy(() -> CgroupName.ROOT.child("a/b")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void printsAsGoQuotesAStringSlice() {
        assertThat(CgroupName.ROOT.child("jk", "kubepods")).hasToString("[\"jk\" \"kubepods\"]");
    }

    @ParameterizedTest
    @CsvSource({
            "-.slice, /",
            "kubepods.slice, /kubepods.slice",
            "test-a-b.slice, /test.slice/test-a.slice/test-a-b.slice",
    })
    void slicesExpandAsLibcontainerDoes(String slice, String path) {
        assertThat(SystemdSlice.expand(slice)).isEqualTo(path);
    }

    @Test
    void malformedSlicesAreRefused() {
        for (String bad : List.of("a--b.slice", "-a.slice", "a.scope", ".slice", "a/b.slice")) {
            assertThatThrownBy(() -> SystemdSlice.expand(bad)).as(bad).hasMessage("invalid slice name: " + bad);
        }
    }

    @Test
    void driversAreNamedAsTheConfigurationNamesThem() {
        assertThat(CgroupDriver.of("systemd")).isEqualTo(CgroupDriver.SYSTEMD);
        assertThat(CgroupDriver.of("cgroupfs").path(POD)).isEqualTo("/kubepods/burstable/pod1234-abcd-5678-efgh");
        assertThatThrownBy(() -> CgroupDriver.of("none")).hasMessageContaining("must be \"cgroupfs\" or \"systemd\"");
    }
}
