package io.jkubelet.core.volume.csi;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Upstream v1.30's {@code supportsFSGroup}: which CSI volumes the kubelet gives to the pod's {@code fsGroup}. */
class FsGroupPolicyTest {
    private static final List<String> RWO = List.of("ReadWriteOnce");

    @Test
    void fileAlwaysNoneNeverAndNothingWithoutAnFsGroupOrForAReadOnlyVolume() {
        assertThat(FsGroupPolicy.supportsFsGroup("File", 1000L, false, "", List.of("ReadWriteMany"))).isTrue();
        assertThat(FsGroupPolicy.supportsFsGroup("None", 1000L, false, "ext4", RWO)).isFalse();
        assertThat(FsGroupPolicy.supportsFsGroup("File", null, false, "ext4", RWO)).isFalse();
        assertThat(FsGroupPolicy.supportsFsGroup("File", 1000L, true, "ext4", RWO)).isFalse();
    }

    @Test
    void readWriteOnceWithFsTypeNeedsAnFsTypeAndReadWriteOnceOrAnInlineVolume() {
        String policy = "ReadWriteOnceWithFSType";
        assertThat(FsGroupPolicy.supportsFsGroup(policy, 1000L, false, "ext4", List.of("ReadOnlyMany", "ReadWriteOnce")))
                .isTrue();
        assertThat(FsGroupPolicy.supportsFsGroup(policy, 1000L, false, "", RWO)).isFalse();
        assertThat(FsGroupPolicy.supportsFsGroup(policy, 1000L, false, "ext4", List.of("ReadWriteMany"))).isFalse();
        assertThat(FsGroupPolicy.supportsFsGroup(policy, 1000L, false, "ext4", List.of())).isFalse();
        assertThat(FsGroupPolicy.supportsFsGroup(policy, 1000L, false, "ext4", List.of("ReadWriteOncePod")))
                .as("v1.30; v1.32 adds it").isFalse();
        assertThat(FsGroupPolicy.supportsFsGroup(policy, 1000L, false, "ext4", null)).as("inline").isTrue();
        assertThat(FsGroupPolicy.supportsFsGroup(policy, 1000L, false, "", null)).as("inline without fsType").isFalse();
    }
}
