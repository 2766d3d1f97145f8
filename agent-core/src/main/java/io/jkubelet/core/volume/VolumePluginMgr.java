package io.jkubelet.core.volume;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The node's volume plugins (upstream {@code VolumePluginMgr}): the one that mounts a spec, or the one of a name.
 * Immutable and thread-safe.
 */
public final class VolumePluginMgr {
    private final List<VolumePlugin> plugins;

    public VolumePluginMgr(List<VolumePlugin> plugins) {
        this.plugins = List.copyOf(plugins);
    }

    /**
     * Upstream {@code FindPluginBySpec}.
     *
     * @throws VolumeException {@code no volume plugin matched}, or {@code multiple volume plugins matched: a,b}
     */
    public VolumePlugin findPluginBySpec(VolumeSpec spec) throws VolumeException {
        List<VolumePlugin> matched = new ArrayList<>();
        for (VolumePlugin p : plugins) {
            if (p.canSupport(spec)) {
                matched.add(p);
            }
        }
        if (matched.isEmpty()) {
            throw new VolumeException("no volume plugin matched");
        }
        if (matched.size() > 1) {
            throw new VolumeException("multiple volume plugins matched: "
                    + String.join(",", matched.stream().map(VolumePlugin::name).toList()));
        }
        return matched.get(0);
    }

    /**
     * Upstream {@code FindPluginByName}.
     *
     * @throws VolumeException {@code no volume plugin matched name: <name>}
     */
    public VolumePlugin findPluginByName(String name) throws VolumeException {
        for (VolumePlugin p : plugins) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new VolumeException("no volume plugin matched name: " + name);
    }

    /**
     * Upstream {@code FindMapperPluginBySpec}: the spec's plugin when it maps raw block volumes, empty when it does not.
     *
     * @throws VolumeException as {@link #findPluginBySpec}
     */
    public Optional<BlockVolumePlugin> findMapperPluginBySpec(VolumeSpec spec) throws VolumeException {
        return findPluginBySpec(spec) instanceof BlockVolumePlugin p ? Optional.of(p) : Optional.empty();
    }

    /**
     * Upstream {@code FindMapperPluginByName}: the plugin of that name when it maps raw block volumes.
     *
     * @throws VolumeException as {@link #findPluginByName}
     */
    public Optional<BlockVolumePlugin> findMapperPluginByName(String name) throws VolumeException {
        return findPluginByName(name) instanceof BlockVolumePlugin p ? Optional.of(p) : Optional.empty();
    }

    public List<VolumePlugin> plugins() {
        return plugins;
    }
}
