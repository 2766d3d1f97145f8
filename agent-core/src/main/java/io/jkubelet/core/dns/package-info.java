/**
 * The pods' DNS settings (upstream {@code pkg/kubelet/network/dns}): the host's resolver configuration
 * ({@code resolvConf}), the cluster's DNS servers and search domains by DNS policy, and the resolver's limits.
 */
package io.jkubelet.core.dns;
