/**
 * The plugin manager (upstream {@code pkg/kubelet/pluginmanager}): watches the plugin registry directory
 * ({@code <root-dir>/plugins_registry}) for plugins' registration sockets, asks each for its information through the
 * {@link io.jkubelet.core.pluginmanager.PluginRegistrationClient} port and hands it to the handler of its type.
 */
package io.jkubelet.core.pluginmanager;
