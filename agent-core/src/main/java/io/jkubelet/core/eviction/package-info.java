/**
 * Node-pressure eviction (upstream {@code pkg/kubelet/eviction}): the signals observed from the stats summary, the
 * thresholds of {@code evictionHard}/{@code evictionSoft} and their parsing, the pure decisions of one cycle (which
 * thresholds are met, for how long, which node conditions follow, how pods rank), the eviction message, and the
 * {@link io.jkubelet.core.eviction.EvictionManager} that acts on them: node-level reclaim first, then one pod per
 * cycle; with the admission of new pods under pressure.
 */
package io.jkubelet.core.eviction;
