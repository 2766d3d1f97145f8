package io.jkubelet.core.volumemanager;

import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumePluginMgr;
import io.jkubelet.core.volume.csi.CsiVolumePlugin;
import io.jkubelet.core.volume.configmap.ConfigMapPlugin;
import io.jkubelet.core.volume.downwardapi.DownwardApiPlugin;
import io.jkubelet.core.volume.emptydir.EmptyDirPlugin;
import io.jkubelet.core.volume.gitrepo.GitRepoPlugin;
import io.jkubelet.core.volume.hostpath.HostPathPlugin;
import io.jkubelet.core.volume.local.LocalVolumePlugin;
import io.jkubelet.core.volume.nfs.NfsPlugin;
import io.jkubelet.core.volume.projected.ProjectedPlugin;
import io.jkubelet.core.volume.secret.SecretPlugin;
import io.jkubelet.core.volume.util.HostMounts;

import java.util.ArrayList;
import java.util.List;

/** The node's in-tree volume plugins (upstream's {@code ProbeVolumePlugins} of the kubelet's command). */
public final class VolumePlugins {
    private VolumePlugins() {}

    /**
     * The in-tree plugins without CSI (for tests of the volume manager that need no CSI driver).
     *
     * @param recorder the plugins' own events (upstream's volume host's recorder)
     */
    public static VolumePluginMgr probe(PodDirs dirs, HostMounts mounts, ApiVolumes apiVolumes, EventRecorder recorder) {
        return new VolumePluginMgr(inTree(dirs, mounts, apiVolumes, recorder));
    }

    /** The in-tree plugins and the CSI plugin, as upstream's kubelet probes them. */
    public static VolumePluginMgr probe(PodDirs dirs, HostMounts mounts, ApiVolumes apiVolumes, CsiVolumePlugin csi,
                                        EventRecorder recorder) {
        List<VolumePlugin> plugins = new ArrayList<>(inTree(dirs, mounts, apiVolumes, recorder));
        plugins.add(csi);
        return new VolumePluginMgr(plugins);
    }

    private static List<VolumePlugin> inTree(PodDirs dirs, HostMounts mounts, ApiVolumes apiVolumes,
                                             EventRecorder recorder) {
        EmptyDirPlugin emptyDir = new EmptyDirPlugin(dirs, mounts);
        return List.of(
                emptyDir,
                new GitRepoPlugin(dirs, emptyDir),
                new HostPathPlugin(),
                new ConfigMapPlugin(apiVolumes, dirs, mounts),
                new SecretPlugin(apiVolumes, dirs, mounts),
                new DownwardApiPlugin(apiVolumes, dirs, mounts),
                new ProjectedPlugin(apiVolumes, dirs, mounts),
                new LocalVolumePlugin(dirs, mounts, recorder),
                new NfsPlugin(dirs, mounts));
    }
}
